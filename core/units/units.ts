/**
 * The unit catalogue. Every unit belongs to exactly one kind and converts to that kind's base unit
 * by an exact rational factor (numerator / denominator, both integers), so a conversion is one
 * multiplication and one division by exact integers rather than a chain of rounded decimals.
 * Factors follow the reference conventions: 1 sqin = 6.4516 sqcm and 1 sqft = 929.0304 sqcm
 * (exact by the definition of the inch), 1 ppm = 1 mg/kg.
 */

export const UNIT_KINDS = [
  'mass',
  'area',
  'volume',
  'count',
  'concentration',
  'toxicity',
  'surfaceLimit',
  'swabLimit',
  'rinseLimit',
  'rinseConcentration',
  'fraction',
  'duration',
  'calendarDuration',
] as const;

export type UnitKind = (typeof UNIT_KINDS)[number];

export interface UnitDefinition {
  readonly kind: UnitKind;
  /** value in the kind's base unit = value × numerator / denominator */
  readonly numerator: number;
  readonly denominator: number;
  readonly label: string;
}

function unit<K extends UnitKind>(
  kind: K,
  numerator: number,
  denominator: number,
  label: string,
): UnitDefinition & { readonly kind: K } {
  return { kind, numerator, denominator, label };
}

/**
 * Base units: mass mg, area sqcm, volume ml, count units, concentration ppm (mg/kg), toxicity
 * mg/kg body weight, surface limit mg/sqcm, swab limit mg/swab, rinse limit mg/rinse, rinse
 * concentration mg/ml, fraction 1, duration day, calendar duration month.
 */
export const UNITS = {
  ng: unit('mass', 1, 1_000_000, 'nanogram'),
  ug: unit('mass', 1, 1_000, 'microgram'),
  mg: unit('mass', 1, 1, 'milligram'),
  g: unit('mass', 1_000, 1, 'gram'),
  kg: unit('mass', 1_000_000, 1, 'kilogram'),

  sqcm: unit('area', 1, 1, 'square centimetre'),
  sqdm: unit('area', 100, 1, 'square decimetre'),
  sqin: unit('area', 64_516, 10_000, 'square inch'),
  sqft: unit('area', 9_290_304, 10_000, 'square foot'),
  sqm: unit('area', 10_000, 1, 'square metre'),

  ml: unit('volume', 1, 1, 'millilitre'),
  L: unit('volume', 1_000, 1, 'litre'),

  units: unit('count', 1, 1, 'dosage units'),

  ppm: unit('concentration', 1, 1, 'parts per million (mg/kg)'),
  ppb: unit('concentration', 1, 1_000, 'parts per billion (ug/kg)'),
  '%': unit('concentration', 10_000, 1, 'percent (w/w)'),

  'mg/kg': unit('toxicity', 1, 1, 'mg per kg body weight'),
  'g/kg': unit('toxicity', 1_000, 1, 'g per kg body weight'),

  'mg/sqcm': unit('surfaceLimit', 1, 1, 'mg per sqcm'),
  'ug/sqcm': unit('surfaceLimit', 1, 1_000, 'ug per sqcm'),
  'mg/sqin': unit('surfaceLimit', 10_000, 64_516, 'mg per sqin'),
  'ug/sqin': unit('surfaceLimit', 10, 64_516, 'ug per sqin'),
  'mg/sqm': unit('surfaceLimit', 1, 10_000, 'mg per sqm'),
  'ug/sqm': unit('surfaceLimit', 1, 10_000_000, 'ug per sqm'),
  'ug/sqdm': unit('surfaceLimit', 1, 100_000, 'ug per sqdm'),
  'ug/sqft': unit('surfaceLimit', 10, 9_290_304, 'ug per sqft'),

  'mg/swab': unit('swabLimit', 1, 1, 'mg per swab'),
  'ug/swab': unit('swabLimit', 1, 1_000, 'ug per swab'),

  'mg/rinse': unit('rinseLimit', 1, 1, 'mg per rinse'),
  'ug/rinse': unit('rinseLimit', 1, 1_000, 'ug per rinse'),

  'mg/ml': unit('rinseConcentration', 1, 1, 'mg per ml'),
  'ug/ml': unit('rinseConcentration', 1, 1_000, 'ug per ml'),
  'mg/L': unit('rinseConcentration', 1, 1_000, 'mg per litre'),

  fraction: unit('fraction', 1, 1, 'fraction'),
  percent: unit('fraction', 1, 100, 'percent'),

  // Spec §3 time units. Days and weeks convert exactly; months and years only into each other,
  // because a month is no fixed number of days (hold times, ICH M7 treatment durations).
  day: unit('duration', 1, 1, 'day'),
  days: unit('duration', 1, 1, 'days'),
  week: unit('duration', 7, 1, 'week'),
  weeks: unit('duration', 7, 1, 'weeks'),
  month: unit('calendarDuration', 1, 1, 'month'),
  months: unit('calendarDuration', 1, 1, 'months'),
  year: unit('calendarDuration', 12, 1, 'year'),
  years: unit('calendarDuration', 12, 1, 'years'),
} as const;

// Checked apart from the literal: a `satisfies` on it would widen each kind to UnitKind.
const _everyUnitIsADefinition: Record<string, UnitDefinition> = UNITS;

export type Unit = keyof typeof UNITS;

/** Units of one kind, as a type: `UnitOf<'mass'>` is `'ng' | 'ug' | 'mg' | 'g' | 'kg'`. */
export type UnitOf<K extends UnitKind> = {
  [U in Unit]: (typeof UNITS)[U]['kind'] extends K ? U : never;
}[Unit];

export const BASE_UNIT = {
  mass: 'mg',
  area: 'sqcm',
  volume: 'ml',
  count: 'units',
  concentration: 'ppm',
  toxicity: 'mg/kg',
  surfaceLimit: 'mg/sqcm',
  swabLimit: 'mg/swab',
  rinseLimit: 'mg/rinse',
  rinseConcentration: 'mg/ml',
  fraction: 'fraction',
  duration: 'day',
  calendarDuration: 'month',
} as const satisfies { [K in UnitKind]: UnitOf<K> };

export function isUnit(value: unknown): value is Unit {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(UNITS, value);
}

export function kindOf(unitName: Unit): UnitKind {
  return UNITS[unitName].kind;
}

export function unitsOfKind<K extends UnitKind>(kind: K): UnitOf<K>[] {
  return (Object.keys(UNITS) as Unit[]).filter((u) => UNITS[u].kind === kind) as UnitOf<K>[];
}
