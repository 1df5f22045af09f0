import { UNITS, isUnit, kindOf, type Unit } from '../units/units.ts';

/** One mapped item of equipment as the surface-area total sees it. */
export interface AreaItem {
  id: number;
  name: string;
  /** The area as entered; null (or a unit that is no area) when the item has none. */
  surfaceArea: { value: number; unit: string } | null;
  isArchived?: boolean;
}

export type AreaItemStatus = 'counted' | 'missing' | 'archived';

export interface AreaLine {
  equipmentId: number;
  name: string;
  surfaceArea: { value: number; unit: string } | null;
  converted: { value: number; unit: string } | null;
  status: AreaItemStatus;
}

export interface AreaTotal {
  unit: string;
  total: { value: number; unit: string };
  isComplete: boolean;
  lines: AreaLine[];
  missing: string[];
  derivation: string;
}

/** An exact fraction n / d of big integers (d > 0). */
interface Ratio {
  n: bigint;
  d: bigint;
}

const gcd = (a: bigint, b: bigint): bigint => {
  let [x, y] = [a < 0n ? -a : a, b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};

function reduce({ n, d }: Ratio): Ratio {
  const g = gcd(n, d);
  return g > 1n ? { n: n / g, d: d / g } : { n, d };
}

/** The exact decimal value of a finite double as written by JavaScript (e.g. 12.5, 1e-7). */
function ratioOf(value: number): Ratio {
  const [mantissa = '0', exponent = '0'] = String(value).toLowerCase().split('e');
  const [whole = '0', fraction = ''] = mantissa.split('.');
  let n = BigInt(whole + fraction);
  let d = 10n ** BigInt(fraction.length);
  const e = Number(exponent);
  if (e > 0) n *= 10n ** BigInt(e);
  else if (e < 0) d *= 10n ** BigInt(-e);
  return reduce({ n, d });
}

/** The fraction as the nearest double: 20 significant decimals, then one rounding. */
function numberOf({ n, d }: Ratio): number {
  const negative = n < 0n;
  const abs = negative ? -n : n;
  const whole = abs / d;
  const scale = 10n ** 20n;
  const fraction = ((abs % d) * scale) / d;
  const text = `${whole}.${fraction.toString().padStart(20, '0')}`;
  return negative ? -Number(text) : Number(text);
}

/** value × (factor of `from`) / (factor of `to`) with the catalogue's exact integer factors. */
function convertExact(value: number, from: Unit, to: Unit): Ratio {
  const a = UNITS[from];
  const b = UNITS[to];
  const r = ratioOf(value);
  return reduce({
    n: r.n * BigInt(a.numerator) * BigInt(b.denominator),
    d: r.d * BigInt(a.denominator) * BigInt(b.numerator),
  });
}

const add = (x: Ratio, y: Ratio): Ratio => reduce({ n: x.n * y.d + y.n * x.d, d: x.d * y.d });

const isArea = (unit: string): unit is Unit => isUnit(unit) && kindOf(unit) === 'area';

const show = (value: number) => String(value);

/**
 * A production's product-contact surface area: the sum of its equipment's areas, each converted
 * exactly into `unit` and summed as exact fractions, so that mixed sqcm/sqin/sqm rounds once.
 * An item without an area makes the total incomplete (never a silent 0); archived items are
 * listed but not counted, as the limits leave them out too.
 */
export function totalSurfaceArea(items: readonly AreaItem[], unit: string): AreaTotal {
  if (!isArea(unit)) throw new Error(`${unit} is no unit of area`);
  let sum: Ratio = { n: 0n, d: 1n };
  const lines: AreaLine[] = [];
  const terms: string[] = [];
  for (const item of items) {
    const area = item.surfaceArea;
    if (item.isArchived) {
      lines.push({ ...lineOf(item), converted: null, status: 'archived' });
      continue;
    }
    if (!area || !Number.isFinite(area.value) || !isArea(area.unit)) {
      lines.push({ ...lineOf(item), converted: null, status: 'missing' });
      continue;
    }
    const exact = convertExact(area.value, area.unit, unit);
    sum = add(sum, exact);
    const converted = { value: numberOf(exact), unit };
    lines.push({ ...lineOf(item), converted, status: 'counted' });
    const factor = area.unit === unit ? '' : ` → ${show(converted.value)} ${unit}`;
    terms.push(`${item.name} ${show(area.value)} ${area.unit}${factor}`);
  }
  const missing = lines.filter((l) => l.status === 'missing').map((l) => l.name);
  const counted = lines.filter((l) => l.status === 'counted').length;
  const total = { value: numberOf(sum), unit };
  const isComplete = counted > 0 && missing.length === 0;
  return { unit, total, isComplete, lines, missing, derivation: derivationOf() };

  function derivationOf(): string {
    if (counted === 0 && missing.length === 0) {
      return 'No equipment is mapped to this production, so it has no surface area yet.';
    }
    const sumText = terms.length ? `${terms.join(' + ')} = ${show(total.value)} ${unit}` : '';
    const factors = `1 sqin = 6.4516 sqcm, 1 sqm = 10000 sqcm`;
    const gap = missing.length
      ? ` Incomplete: no surface area for ${missing.join(', ')}; the total leaves ${missing.length === 1 ? 'it' : 'them'} out.`
      : '';
    return `${sumText ? `Total product-contact area: ${sumText} (${factors}).` : 'No item has a surface area.'}${gap}`;
  }
}

function lineOf(item: AreaItem) {
  return { equipmentId: item.id, name: item.name, surfaceArea: item.surfaceArea };
}
