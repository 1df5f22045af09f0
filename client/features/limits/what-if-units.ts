import type { TDefaultUnit } from '#core/schemas/settings.schemas.ts';
import { defaultUnit, type MeasureName } from '#core/units/measures.ts';

/** The quantities what-if changes, and the facility measure (spec §3 default units) of each. */
export const WHAT_IF_MEASURE = {
  minBatchSize: 'minBatchSize',
  maxDailyDose: 'ldd',
  pde: 'pde',
  surfaceArea: 'surfaceArea',
} as const satisfies Record<string, MeasureName>;

export type WhatIfQuantity = keyof typeof WHAT_IF_MEASURE;

/**
 * The unit a what-if value starts in: the facility's default unit for the quantity's measure,
 * else the measure's own default (kg for a batch size, never the first unit of the list, ng).
 * A facility default the field cannot take is passed over the same way.
 */
export function whatIfDefaultUnit(
  quantity: WhatIfQuantity,
  allowed: readonly string[],
  facilityDefaults: readonly TDefaultUnit[] | undefined,
): string {
  const measure = WHAT_IF_MEASURE[quantity];
  const facility = facilityDefaults?.find((d) => d.shortName === measure)?.unit;
  if (facility && allowed.includes(facility)) return facility;
  return defaultUnit(measure);
}
