import type { PropertyError } from '../errors/errors.ts';
import { nameInWords } from '../errors/property-path.ts';
import { BASE_UNIT, isUnit, kindOf } from '../units/units.ts';
import { convertValue } from '../units/quantity.ts';
import type { Unit } from '../units/units.ts';
import type { Quantity } from '../units/quantity.ts';
import type {
  ActiveSpec,
  AmountQuantity,
  EquipmentSpec,
  LimitsInput,
  ProductSpec,
} from './model.ts';
import { TIE_TOLERANCE } from './compile.ts';
import { AREA_BASES, defaultPolicy } from './policy.ts';
import type { AreaBasis, CleaningLimitPolicy, ResidueType } from './policy.ts';

/**
 * Validation of the command-line contract's input (contracts/limits.md). Every problem is
 * collected with the path to its field, so one run reports them all. Units are restricted to the
 * contract's table even where `core/units` knows more (sqft, g/kg…): the contract must hold exactly.
 */

const MASS = ['ng', 'ug', 'mg', 'g', 'kg'] as const;
const AREA = ['sqcm', 'sqin', 'sqm'] as const;
const VOLUME = ['ml', 'L'] as const;
const COUNT = ['units'] as const;
const AMOUNT = [...MASS, ...VOLUME, ...COUNT] as const;
const SURFACE_LIMIT = ['mg/sqcm', 'ug/sqcm', 'mg/sqin', 'ug/sqin', 'mg/sqm', 'ug/sqm'] as const;

/** Residue types the command line accepts (the application's policies know all four). */
export const CONTRACT_RESIDUE_TYPES = ['Chemical', 'Nitrosamine'] as const;

export type ParseResult = { ok: true; input: LimitsInput } | { ok: false; errors: PropertyError[] };

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

class Collector {
  readonly errors: PropertyError[] = [];

  add(property: string, constraint: string, message: string): void {
    this.errors.push({ property, constraints: { [constraint]: message } });
  }
}

interface QuantityRule<U extends string> {
  units: readonly U[];
  kindName: string;
  required?: boolean;
}

function readQuantity<U extends string>(
  c: Collector,
  raw: unknown,
  path: string,
  rule: QuantityRule<U>,
): Quantity<U> | undefined {
  if (raw === undefined || raw === null) {
    if (rule.required) c.add(path, 'required', `is required: { value, unit } in ${rule.kindName}`);
    return undefined;
  }
  if (!isObject(raw)) {
    c.add(path, 'type', `must be an object { value, unit }, got ${describe(raw)}`);
    return undefined;
  }
  let ok = true;
  const { value, unit } = raw;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    c.add(`${path}.value`, 'type', `must be a finite number, got ${describe(value)}`);
    ok = false;
  } else if (value <= 0) {
    c.add(`${path}.value`, 'positive', `must be greater than 0, got ${value}`);
    ok = false;
  }
  if (typeof unit !== 'string' || !(rule.units as readonly string[]).includes(unit)) {
    const what =
      typeof unit !== 'string'
        ? `a unit is required`
        : isUnit(unit)
          ? `${unit} is a unit of ${kindOf(unit)}, not ${rule.kindName}`
          : `unknown unit ${JSON.stringify(unit)}`;
    c.add(`${path}.unit`, 'unit', `${what}; expected one of ${rule.units.join(', ')}`);
    ok = false;
  }
  if (ok) {
    // a number that is only positive until it is converted (5e-324 ng, 1e308 kg) is no quantity
    const base = convertValue(value as number, unit as Unit, BASE_UNIT[kindOf(unit as Unit)]);
    if (!Number.isFinite(base) || base <= 0 || base > 1e100) {
      c.add(
        `${path}.value`,
        'range',
        `${value} ${unit as string} is outside the range the engine computes in`,
      );
      ok = false;
    }
  }
  return ok ? { value: value as number, unit: unit as U } : undefined;
}

function readId(c: Collector, raw: unknown, path: string, seen: Map<string, string>, what: string) {
  if (typeof raw !== 'string' || raw.length === 0) {
    c.add(path, raw === undefined ? 'required' : 'type', `${what} id must be a non-empty string`);
    return undefined;
  }
  const first = seen.get(raw);
  if (first !== undefined) {
    c.add(path, 'unique', `duplicate ${what} id ${JSON.stringify(raw)} (first at ${first})`);
    return undefined;
  }
  seen.set(raw, path);
  return raw;
}

function amountKind(unit: string): string {
  return isUnit(unit) ? kindOf(unit as Unit) : unit;
}

/** An active's first appearance: where, and its data, which every later appearance must repeat. */
interface SeenActive {
  path: string;
  active: ActiveSpec;
}

const ACTIVE_DATA = ['pde', 'therapeuticDose', 'ld50', 'acceptableIntake'] as const;

/** Two quantities of one field are the same data: both absent, or equal within TIE_TOLERANCE. */
function sameQuantity(a: Quantity | undefined, b: Quantity | undefined): boolean {
  if (!a || !b) return a === b;
  const base = BASE_UNIT[kindOf(a.unit as Unit)];
  const x = convertValue(a.value, a.unit as Unit, base);
  const y = convertValue(b.value, b.unit as Unit, base);
  return Math.abs(x - y) <= TIE_TOLERANCE * Math.max(Math.abs(x), Math.abs(y));
}

function readActive(
  c: Collector,
  raw: unknown,
  path: string,
  inProduct: Map<string, string>,
  seen: Map<string, SeenActive>,
) {
  if (!isObject(raw)) {
    c.add(path, 'type', `an active must be an object, got ${describe(raw)}`);
    return undefined;
  }
  // Twice in one product is an error; in several products (a tablet and a syrup of one drug)
  // it is the same substance, so it must carry the same data (contracts/limits.md).
  const id = readId(c, raw.id, `${path}.id`, inProduct, 'active');
  const mass = { units: MASS, kindName: 'mass' };
  const active: ActiveSpec = { id: id ?? '' };
  const pde = readQuantity(c, raw.pde, `${path}.pde`, mass);
  const therapeuticDose = readQuantity(c, raw.therapeuticDose, `${path}.therapeuticDose`, mass);
  const ld50 = readQuantity(c, raw.ld50, `${path}.ld50`, {
    units: ['mg/kg'] as const,
    kindName: 'toxicity (mg/kg)',
  });
  const acceptableIntake = readQuantity(c, raw.acceptableIntake, `${path}.acceptableIntake`, mass);
  if (pde) active.pde = pde;
  if (therapeuticDose) active.therapeuticDose = therapeuticDose;
  if (ld50) active.ld50 = ld50;
  if (acceptableIntake) active.acceptableIntake = acceptableIntake;
  if (id === undefined) return undefined;
  const first = seen.get(id);
  if (!first) {
    seen.set(id, { path, active });
  } else {
    const differs = ACTIVE_DATA.filter((key) => !sameQuantity(first.active[key], active[key]));
    if (differs.length > 0)
      c.add(
        `${path}.${differs[0]!}`,
        'consistent',
        `active ${JSON.stringify(id)} is also at ${first.path} with different data (${differs.map(nameInWords).join(', ')}); one active has one set of data`,
      );
  }
  return active;
}

function readProduct(
  c: Collector,
  raw: unknown,
  path: string,
  productIds: Map<string, string>,
  activeIds: Map<string, SeenActive>,
): ProductSpec | undefined {
  if (!isObject(raw)) {
    c.add(path, 'type', `a product must be an object, got ${describe(raw)}`);
    return undefined;
  }
  const id = readId(c, raw.id, `${path}.id`, productIds, 'product');
  const amount = { units: AMOUNT, kindName: 'mass, volume or units', required: true };
  const minBatchSize = readQuantity(c, raw.minBatchSize, `${path}.minBatchSize`, amount);
  const maxDailyDose = readQuantity(c, raw.maxDailyDose, `${path}.maxDailyDose`, amount);
  let sameKind = true;
  if (minBatchSize && maxDailyDose) {
    const batchKind = amountKind(minBatchSize.unit);
    if (batchKind !== amountKind(maxDailyDose.unit)) {
      sameKind = false;
      c.add(
        `${path}.maxDailyDose.unit`,
        'kind',
        `must be of the same kind as the minimum batch size (${batchKind}), got ${maxDailyDose.unit}`,
      );
    }
  }
  const unitWeight = readQuantity(c, raw.unitWeight, `${path}.unitWeight`, {
    units: MASS,
    kindName: 'mass',
  });
  const actives: ActiveSpec[] = [];
  if (raw.actives !== undefined && raw.actives !== null) {
    if (!Array.isArray(raw.actives)) {
      c.add(`${path}.actives`, 'type', `must be an array, got ${describe(raw.actives)}`);
    } else {
      const inProduct = new Map<string, string>();
      raw.actives.forEach((a: unknown, j: number) => {
        const active = readActive(c, a, `${path}.actives[${j}]`, inProduct, activeIds);
        if (active) actives.push(active);
      });
    }
  }
  if (id === undefined || !minBatchSize || !maxDailyDose || !sameKind) return undefined;
  const product: ProductSpec = {
    id,
    minBatchSize: minBatchSize as AmountQuantity,
    maxDailyDose: maxDailyDose as AmountQuantity,
    actives,
  };
  if (unitWeight) product.unitWeight = unitWeight;
  return product;
}

function readEquipment(c: Collector, raw: unknown, path: string, ids: Map<string, string>) {
  if (!isObject(raw)) {
    c.add(path, 'type', `an equipment item must be an object, got ${describe(raw)}`);
    return undefined;
  }
  const id = readId(c, raw.id, `${path}.id`, ids, 'equipment');
  const surfaceArea = readQuantity(c, raw.surfaceArea, `${path}.surfaceArea`, {
    units: AREA,
    kindName: 'area',
    required: true,
  });
  if (id === undefined || !surfaceArea) return undefined;
  return { id, surfaceArea } satisfies EquipmentSpec;
}

function readBoolean(c: Collector, raw: Json, key: string, fallback: boolean): boolean {
  const value = raw[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') {
    c.add(`policy.${key}`, 'type', `must be true or false, got ${describe(value)}`);
    return fallback;
  }
  return value;
}

function readNumber(
  c: Collector,
  raw: Json,
  key: string,
  fallback: number,
  check: (n: number) => string | undefined,
): number {
  const value = raw[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    c.add(`policy.${key}`, 'type', `must be a finite number, got ${describe(value)}`);
    return fallback;
  }
  const problem = check(value);
  if (problem) {
    c.add(`policy.${key}`, 'range', problem);
    return fallback;
  }
  return value;
}

function readPolicy(c: Collector, raw: unknown): CleaningLimitPolicy {
  const policy = defaultPolicy('Chemical');
  if (raw === undefined || raw === null) return policy;
  if (!isObject(raw)) {
    c.add('policy', 'type', `must be an object, got ${describe(raw)}`);
    return policy;
  }
  if (raw.residueType !== undefined && raw.residueType !== null) {
    if (!(CONTRACT_RESIDUE_TYPES as readonly unknown[]).includes(raw.residueType)) {
      c.add(
        'policy.residueType',
        'enum',
        `unknown residue type ${JSON.stringify(raw.residueType)}; expected one of ${CONTRACT_RESIDUE_TYPES.join(', ')}`,
      );
    } else {
      policy.residueType = raw.residueType as ResidueType;
    }
  }
  policy.useToxicity = readBoolean(c, raw, 'useToxicity', policy.useToxicity);
  policy.useDosage = readBoolean(c, raw, 'useDosage', policy.useDosage);
  policy.useLd50 = readBoolean(c, raw, 'useLd50', policy.useLd50);
  policy.useARL = readBoolean(c, raw, 'useARL', policy.useARL);
  policy.useResidueLimit = readBoolean(c, raw, 'useResidueLimit', policy.useResidueLimit);
  policy.useFirstAvailableCriteria = readBoolean(
    c,
    raw,
    'useFirstAvailableCriteria',
    policy.useFirstAvailableCriteria,
  );
  policy.useGlobalRecoveryPercentage = readBoolean(
    c,
    raw,
    'useGlobalRecoveryPercentage',
    policy.useGlobalRecoveryPercentage,
  );
  const arl = readQuantity(c, raw.arl, 'policy.arl', { units: ['ppm'] as const, kindName: 'ppm' });
  if (arl) policy.arl = arl;
  const residueLimit = readQuantity(c, raw.residueLimit, 'policy.residueLimit', {
    units: SURFACE_LIMIT,
    kindName: 'surface limit',
  });
  if (residueLimit) policy.residueLimit = residueLimit;
  const bodyWeight = readQuantity(c, raw.bodyWeight, 'policy.bodyWeight', {
    units: MASS,
    kindName: 'mass',
  });
  if (bodyWeight) policy.bodyWeight = bodyWeight;
  policy.safetyFactor = readNumber(c, raw, 'safetyFactor', policy.safetyFactor, (n) =>
    n < 1 ? `must be at least 1 (a divisor, APIC convention), got ${n}` : undefined,
  );
  policy.ld50EmpiricalFactor = readNumber(
    c,
    raw,
    'ld50EmpiricalFactor',
    policy.ld50EmpiricalFactor,
    (n) => (n <= 0 ? `must be greater than 0, got ${n}` : undefined),
  );
  policy.globalRecoveryPercentage = readNumber(
    c,
    raw,
    'globalRecoveryPercentage',
    policy.globalRecoveryPercentage,
    (n) => (n <= 0 || n > 100 ? `must be in (0, 100], got ${n}` : undefined),
  );
  if (raw.areaBasis !== undefined && raw.areaBasis !== null) {
    if (!(AREA_BASES as readonly unknown[]).includes(raw.areaBasis)) {
      c.add(
        'policy.areaBasis',
        'enum',
        `unknown area basis ${JSON.stringify(raw.areaBasis)}; expected one of ${AREA_BASES.join(', ')}`,
      );
    } else {
      policy.areaBasis = raw.areaBasis as AreaBasis;
    }
  }
  return policy;
}

function readTrains(
  c: Collector,
  raw: unknown,
  productIds: Map<string, string>,
  equipmentIds: Map<string, string>,
): Record<string, string[]> {
  // no prototype: product ids such as "__proto__" or "constructor" are plain keys here
  const trains = Object.create(null) as Record<string, string[]>;
  if (raw === undefined || raw === null) {
    c.add('trains', 'required', 'is required: { productId: [equipmentId, …] }');
    return trains;
  }
  if (!isObject(raw)) {
    c.add('trains', 'type', `must be an object, got ${describe(raw)}`);
    return trains;
  }
  for (const [productId, items] of Object.entries(raw)) {
    const path = `trains.${productId}`;
    const known = productIds.has(productId);
    if (!known) c.add(path, 'exists', `unknown product ${JSON.stringify(productId)}`);
    if (!Array.isArray(items)) {
      c.add(path, 'type', `must be an array of equipment ids, got ${describe(items)}`);
      continue;
    }
    const ids: string[] = [];
    items.forEach((item: unknown, j: number) => {
      if (typeof item !== 'string' || !equipmentIds.has(item)) {
        c.add(`${path}[${j}]`, 'exists', `unknown equipment ${JSON.stringify(item)}`);
      } else {
        ids.push(item);
      }
    });
    if (known) trains[productId] = ids;
  }
  return trains;
}

/** Validates and completes the contract's input; never throws on bad data. */
export function parseLimitsInput(raw: unknown): ParseResult {
  const c = new Collector();
  if (!isObject(raw)) {
    c.add('input', 'type', `the input must be a JSON object, got ${describe(raw)}`);
    return { ok: false, errors: c.errors };
  }
  const policy = readPolicy(c, raw.policy);

  const productIds = new Map<string, string>();
  const activeIds = new Map<string, SeenActive>();
  const products: ProductSpec[] = [];
  if (!Array.isArray(raw.products)) {
    c.add('products', raw.products === undefined ? 'required' : 'type', 'must be an array');
  } else {
    raw.products.forEach((p: unknown, i: number) => {
      const product = readProduct(c, p, `products[${i}]`, productIds, activeIds);
      if (product) products.push(product);
    });
  }

  const equipmentIds = new Map<string, string>();
  const equipment: EquipmentSpec[] = [];
  if (!Array.isArray(raw.equipment)) {
    c.add('equipment', raw.equipment === undefined ? 'required' : 'type', 'must be an array');
  } else {
    raw.equipment.forEach((e: unknown, i: number) => {
      const item = readEquipment(c, e, `equipment[${i}]`, equipmentIds);
      if (item) equipment.push(item);
    });
  }

  const trains = readTrains(c, raw.trains, productIds, equipmentIds);

  const sampling: LimitsInput['sampling'] = {};
  if (raw.sampling !== undefined && raw.sampling !== null) {
    if (!isObject(raw.sampling)) {
      c.add('sampling', 'type', `must be an object, got ${describe(raw.sampling)}`);
    } else {
      const swabArea = readQuantity(c, raw.sampling.swabArea, 'sampling.swabArea', {
        units: AREA,
        kindName: 'area',
      });
      const rinseVolume = readQuantity(c, raw.sampling.rinseVolume, 'sampling.rinseVolume', {
        units: VOLUME,
        kindName: 'volume',
      });
      if (swabArea) sampling.swabArea = swabArea;
      if (rinseVolume) sampling.rinseVolume = rinseVolume;
    }
  }

  if (c.errors.length > 0) return { ok: false, errors: c.errors };
  return { ok: true, input: { policy, products, equipment, trains, sampling } };
}
