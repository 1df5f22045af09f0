/**
 * Query keys of the facility's limits. Everything here is derived from master data, so a change
 * to master data invalidates `limitsKeys.all` (see master-data/entity-queries.ts).
 */
export const limitsKeys = {
  all: (facilityId: number) => ['facility', facilityId, 'limits'] as const,
  macMatrix: (facilityId: number) => ['facility', facilityId, 'limits', 'mac-matrix'] as const,
};
