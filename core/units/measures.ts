import { UnitKindError } from './quantity.ts';
import type { Quantity } from './quantity.ts';
import { isUnit, kindOf } from './units.ts';
import type { Unit, UnitKind } from './units.ts';

/**
 * The measures of spec §3 ("Allowed units per measure", "Default units") with the units each
 * field accepts and the unit a new value starts in. A form or an import checks a field's unit
 * here, so that a quantity of the wrong kind for a field is refused, never stored as a number.
 */
export interface Measure {
  label: string;
  allowed: readonly Unit[];
  default: Unit;
}

const MASS = ['ng', 'ug', 'mg', 'g', 'kg'] as const;
/** A batch size or a daily dose: a mass, a volume or a count of dosage units. */
const AMOUNT = [...MASS, 'ml', 'L', 'units'] as const;

export const MEASURES = {
  surfaceArea: { label: 'surface area', allowed: ['sqcm', 'sqin', 'sqm'], default: 'sqcm' },
  // Doses and intakes take every mass unit the limits contract takes (contracts/limits.md), so
  // that whatever the engine computes from can also be entered: a PDE of 50 ng/day, a dose in g.
  pde: { label: 'PDE', allowed: MASS, default: 'mg' },
  td: { label: 'therapeutic dose', allowed: MASS, default: 'mg' },
  ld50: { label: 'LD50', allowed: ['mg/kg'], default: 'mg/kg' },
  ai: { label: 'acceptable intake', allowed: MASS, default: 'ng' },
  l3: {
    label: 'surface limit (L3)',
    allowed: ['mg/sqcm', 'ug/sqcm', 'mg/sqin', 'ug/sqin', 'mg/sqm', 'ug/sqm'],
    default: 'mg/sqcm',
  },
  l4: { label: 'carryover (L4)', allowed: ['ug', 'mg', 'g', 'kg'], default: 'mg' },
  l5: { label: 'limit in the next product (L5)', allowed: ['ppm'], default: 'ppm' },
  swabLimit: { label: 'swab limit', allowed: ['mg/swab', 'ug/swab'], default: 'mg/swab' },
  rinseLimit: { label: 'rinse limit', allowed: ['mg/rinse', 'ug/rinse'], default: 'mg/rinse' },
  concentration: {
    label: 'concentration',
    allowed: ['mg/ml', 'ug/ml', 'ppm'],
    default: 'ppm',
  },
  // A method's LOD or LOQ: a concentration in the sample (a rinse, or a swab's extract), or an
  // amount per swab for a swab method that states it so (issue 26: the LOQ a swab result is
  // judged with needs either this or the extraction volume of the swab's sampling type).
  detectionLimit: {
    label: 'detection limit',
    allowed: ['mg/ml', 'ug/ml', 'ppm', 'mg/swab', 'ug/swab'],
    default: 'ppm',
  },
  volume: { label: 'volume', allowed: ['ml', 'L'], default: 'ml' },
  minBatchSize: { label: 'minimum batch size', allowed: AMOUNT, default: 'kg' },
  ldd: { label: 'largest daily dose', allowed: AMOUNT, default: 'mg' },
  minDailyDose: { label: 'minimum daily dose', allowed: ['mg', 'ug'], default: 'mg' },
  strength: { label: 'strength', allowed: ['mg', 'ug'], default: 'mg' },
  // The mass of one dosage unit: a volume says nothing of a unit's mass (contracts/limits.md).
  tabletWeight: { label: 'tablet weight', allowed: MASS, default: 'mg' },
} as const satisfies Record<string, Measure>;

export type MeasureName = keyof typeof MEASURES;

/** Spec §3 "Input keys" and the measure each one is. */
export const INPUT_KEY_MEASURE = {
  pde: 'pde',
  td: 'td',
  ldd: 'ldd',
  min_bs: 'minBatchSize',
  surface_area: 'surfaceArea',
  ld50: 'ld50',
  strength: 'strength',
  volume: 'volume',
  tablet_weight: 'tabletWeight',
} as const satisfies Record<string, MeasureName>;

/** Checks a quantity against a measure; throws UnitKindError for a unit the field does not take. */
export function checkMeasure<M extends MeasureName>(
  measure: M,
  q: Quantity<string>,
): Quantity<(typeof MEASURES)[M]['allowed'][number]> {
  const allowed: readonly string[] = MEASURES[measure].allowed;
  if (!allowed.includes(q.unit)) {
    const kinds = [...new Set(MEASURES[measure].allowed.map((u: Unit) => kindOf(u)))] as UnitKind[];
    throw new UnitKindError(kinds, q.unit);
  }
  return q as Quantity<(typeof MEASURES)[M]['allowed'][number]>;
}

/** The default unit of a measure, for a new value. */
export function defaultUnit(measure: MeasureName): Unit {
  return MEASURES[measure].default;
}

export function isAllowed(measure: MeasureName, unit: string): boolean {
  return isUnit(unit) && (MEASURES[measure].allowed as readonly string[]).includes(unit);
}

/**
 * The unit as the catalogue spells it: `µg` with the micro sign (U+00B5) or the Greek mu
 * (U+03BC), as a spreadsheet or a keyboard writes it, is `ug`.
 */
export function normalizeUnit(unit: string): string {
  return unit.trim().replace(/^[\u00b5\u03bc]/, 'u');
}
