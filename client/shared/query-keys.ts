import type { QueryClient } from '@tanstack/react-query';
import type { EntityDef } from '#core/entities/entity.ts';

/**
 * The react-query keys of a facility's master data and of everything computed from it, in one
 * place so that "master data changed" has one meaning. Keys nest: invalidating a prefix
 * refetches every query under it.
 */
const facility = (facilityId: number) => ['facility', facilityId] as const;

export const entityKeys = {
  /** Every master-data list, picker and record of the facility. */
  allEntities: (facilityId: number) => [...facility(facilityId), 'entities'] as const,
  all: (facilityId: number, def: EntityDef) =>
    [...entityKeys.allEntities(facilityId), def.key] as const,
  list: (facilityId: number, def: EntityDef, query: object) =>
    [...entityKeys.all(facilityId, def), 'list', query] as const,
  options: (facilityId: number, def: EntityDef) =>
    [...entityKeys.all(facilityId, def), 'options'] as const,
  detail: (facilityId: number, def: EntityDef, id: number) =>
    [...entityKeys.all(facilityId, def), 'detail', id] as const,
};

export const mappingKeys = {
  productions: (facilityId: number) =>
    [...entityKeys.allEntities(facilityId), 'productions'] as const,
  surfaceAreas: (facilityId: number) =>
    [...mappingKeys.productions(facilityId), 'surface-areas'] as const,
  surfaceArea: (facilityId: number, id: number) =>
    [...mappingKeys.productions(facilityId), 'surface-area', id] as const,
  productionMap: (facilityId: number, id: number) =>
    [...mappingKeys.productions(facilityId), 'map', id] as const,
  groups: (facilityId: number) =>
    [...entityKeys.allEntities(facilityId), 'equipmentGroups'] as const,
  groupMap: (facilityId: number, id: number) =>
    [...mappingKeys.groups(facilityId), 'map', id] as const,
  groupEquipment: (facilityId: number, id: number) =>
    [...mappingKeys.groups(facilityId), 'equipments', id] as const,
  noGroup: (facilityId: number) => [...mappingKeys.groups(facilityId), 'no-group'] as const,
};

export const equipmentKeys = {
  all: (facilityId: number) => [...facility(facilityId), 'equipment'] as const,
  one: (facilityId: number, id: number) => [...equipmentKeys.all(facilityId), id] as const,
  images: (facilityId: number, id: number) =>
    [...equipmentKeys.one(facilityId, id), 'images'] as const,
  locations: (facilityId: number, id: number, archived: boolean) =>
    [...equipmentKeys.one(facilityId, id), 'locations', archived] as const,
  samples: (facilityId: number, id: number, locationId: number, archived: boolean) =>
    [...equipmentKeys.one(facilityId, id), 'locations', locationId, 'samples', archived] as const,
};

export const roomGradeKeys = {
  grades: (facilityId: number) => [...facility(facilityId), 'room-grades'] as const,
  equipment: (facilityId: number) => [...roomGradeKeys.grades(facilityId), 'equipment'] as const,
};

/** Limits, their reports, the what-if input and the pair derivations: all computed. */
export const limitsKeys = {
  all: (facilityId: number) => [...facility(facilityId), 'limits'] as const,
  macMatrix: (facilityId: number) => [...limitsKeys.all(facilityId), 'mac-matrix'] as const,
};

export const dashboardKeys = {
  all: (facilityId: number) => [...facility(facilityId), 'dashboard'] as const,
  toxicity: (facilityId: number) => [...dashboardKeys.all(facilityId), 'toxicity'] as const,
  tracker: (facilityId: number) => [...dashboardKeys.all(facilityId), 'tracker'] as const,
};

/**
 * After any change to master data or to what the limits are computed with (a record saved,
 * archived, imported, mapped, approved; a limit policy saved): the records themselves and every
 * screen derived from them refetch, so no limit on screen outlives its inputs.
 */
export function invalidateMasterData(client: QueryClient, facilityId: number): Promise<unknown> {
  return Promise.all(
    [
      entityKeys.allEntities(facilityId),
      equipmentKeys.all(facilityId),
      roomGradeKeys.grades(facilityId),
      limitsKeys.all(facilityId),
      dashboardKeys.all(facilityId),
    ].map((queryKey) => client.invalidateQueries({ queryKey })),
  );
}
