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
  options: (facilityId: number, def: EntityDef, archived = false) =>
    [...entityKeys.all(facilityId, def), archived ? 'archived-options' : 'options'] as const,
  detail: (facilityId: number, def: EntityDef, id: number) =>
    [...entityKeys.all(facilityId, def), 'detail', id] as const,
  whereUsed: (facilityId: number, def: EntityDef, id: number) =>
    [...entityKeys.detail(facilityId, def, id), 'where-used'] as const,
  /** The id of the record of that name (links by name). */
  named: (facilityId: number, def: EntityDef, name: string) =>
    [...entityKeys.all(facilityId, def), 'named', name] as const,
  documents: (facilityId: number, def: EntityDef, ownerId: number | null) =>
    [...entityKeys.all(facilityId, def), 'documents', ownerId] as const,
  /** The options of no entity (a picker not yet told which): always empty. */
  none: (facilityId: number) => [...entityKeys.allEntities(facilityId), 'none'] as const,
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
};

/** Limits, their reports, the what-if input and the pair derivations: all computed. */
export const limitsKeys = {
  all: (facilityId: number) => [...facility(facilityId), 'limits'] as const,
  macMatrix: (facilityId: number) => [...limitsKeys.all(facilityId), 'mac-matrix'] as const,
  /** The matrix of the facility ('all') or of one production. */
  macMatrixOf: (facilityId: number, productionId?: number) =>
    [...limitsKeys.macMatrix(facilityId), productionId ?? 'all'] as const,
  macGrid: (facilityId: number, productionId?: number) =>
    [...limitsKeys.macMatrix(facilityId), 'grid', productionId ?? 'all'] as const,
  /** One pair of the grid in full; 0 is the whole facility's matrix. */
  pair: (facilityId: number, previous: string, next: string, productionId?: number) =>
    [...limitsKeys.all(facilityId), 'pair', previous, next, productionId ?? 0] as const,
  explain: (facilityId: number, previous: string, next: string, productionId?: number) =>
    [...limitsKeys.all(facilityId), 'explain', previous, next, productionId ?? 0] as const,
  productionExplain: (facilityId: number, productionId: number, previous: string, next: string) =>
    [...limitsKeys.all(facilityId), 'production-explain', productionId, previous, next] as const,
  /** A limits report by its path under the facility (`/limits/equipment`, …). */
  report: (facilityId: number, path: string) =>
    [...limitsKeys.all(facilityId), 'report', path] as const,
  input: (facilityId: number, policy: 'approved' | 'draft', productionId?: number) =>
    [...limitsKeys.all(facilityId), 'input', policy, productionId ?? 'all'] as const,
  /** An analytical method's LOQ against the limits it serves: it moves with the limits. */
  methodFit: (facilityId: number, methodId: number) =>
    [...limitsKeys.all(facilityId), 'method-fit', methodId] as const,
  /** What a method measures: under the limits key, as it changes what the method can show. */
  residueMeasure: (facilityId: number, methodId: number) =>
    [...limitsKeys.all(facilityId), 'residue-measure', methodId] as const,
};

export const studyKeys = {
  all: (facilityId: number) => [...facility(facilityId), 'studies'] as const,
  list: (facilityId: number, query: object) =>
    [...studyKeys.all(facilityId), 'list', query] as const,
  detail: (facilityId: number, id: number) => [...studyKeys.all(facilityId), 'detail', id] as const,
  runs: (facilityId: number, id: number) => [...studyKeys.detail(facilityId, id), 'runs'] as const,
};

export const verificationKeys = {
  runs: (facilityId: number) => [...facility(facilityId), 'runs'] as const,
  run: (facilityId: number, id: number) => [...verificationKeys.runs(facilityId), id] as const,
  /** The run a deviation belongs to (a link to the deviation opens it). */
  deviation: (facilityId: number, id: number) =>
    [...verificationKeys.runs(facilityId), 'deviation', id] as const,
  /** Under the run's key, so that whatever refreshes the run refreshes its microbial side too. */
  microbial: (facilityId: number, runId: number) =>
    [...verificationKeys.run(facilityId, runId), 'microbial'] as const,
  /** Every statistics query of the facility, whatever its item, residue type or period. */
  allStatistics: (facilityId: number) =>
    [...facility(facilityId), 'verification', 'statistics'] as const,
  statistics: (facilityId: number, query: object) =>
    [...verificationKeys.allStatistics(facilityId), query] as const,
  settings: (facilityId: number) => [...facility(facilityId), 'verification', 'settings'] as const,
};

export const reportKeys = {
  all: (facilityId: number) => [...facility(facilityId), 'reports'] as const,
  list: (facilityId: number, page: object) =>
    [...reportKeys.all(facilityId), 'list', page] as const,
  tags: (facilityId: number) => [...reportKeys.all(facilityId), 'tags'] as const,
  one: (facilityId: number, id: number | null) =>
    [...reportKeys.all(facilityId), 'one', id] as const,
  compare: (facilityId: number, id: number) =>
    [...reportKeys.all(facilityId), 'compare', id] as const,
  annualSummaries: (facilityId: number, page: object) =>
    [...reportKeys.all(facilityId), 'annualSummary', page] as const,
};

/** Which of a facility's limit policies a document id is: the residue type's tab. */
export const policyKeys = {
  tab: (facilityId: number, documentId: number | null) =>
    [...facility(facilityId), 'policy-tab', documentId] as const,
};

/** The plan's users as the administration screens read them (not the signed-in user). */
export const userKeys = {
  all: ['users', 'admin'] as const,
  list: (params: object) => [...userKeys.all, 'list', params] as const,
  facilityRoles: (planId: number | null, facilityId: number) =>
    [...userKeys.all, 'roles-of', planId, facilityId] as const,
  departments: ['users', 'admin', 'departments'] as const,
  serviceAccounts: (archived: boolean) => [...userKeys.all, 'service-accounts', archived] as const,
  tokens: (accountId: number) => [...userKeys.all, 'service-account-tokens', accountId] as const,
  history: (id: number, page: object) => [...userKeys.all, 'history', id, page] as const,
};

/**
 * What the signed-in user is given in each facility (permissions, date and time settings,
 * default units): all start with 'facilities', so a role, grant or facility change refreshes them.
 */
export const userFacilityKeys = { all: ['facilities'] as const };

/** The plan's facilities and facility groups as their administration screens list them. */
export const facilityAdminKeys = {
  all: ['facility-admin'] as const,
  facilities: (search: string, pageNumber: number, pageLimit: number) =>
    [...facilityAdminKeys.all, 'facilities', search, pageNumber, pageLimit] as const,
  groups: (search: string, pageNumber: number, pageLimit: number) =>
    [...facilityAdminKeys.all, 'groups', search, pageNumber, pageLimit] as const,
};

/** A record's own audit rows (its History tab). */
export const recordHistoryKeys = {
  record: (facilityId: number, def: EntityDef, id: number) =>
    ['audit_logs', 'record', facilityId, def.key, id] as const,
  page: (facilityId: number, def: EntityDef, id: number, page: object) =>
    [...recordHistoryKeys.record(facilityId, def, id), page] as const,
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

/**
 * After a run changes (results entered, a decision, a deviation, a signature): the run pages,
 * the studies whose outcome follows their runs, the ongoing verification statistics and the
 * dashboard (release flags, validation status) refetch in this browser at once; other browsers
 * follow through the facility's event stream (client/app/live-updates.ts).
 */
export function invalidateVerification(client: QueryClient, facilityId: number): Promise<unknown> {
  return Promise.all(
    [
      verificationKeys.runs(facilityId),
      studyKeys.all(facilityId),
      verificationKeys.allStatistics(facilityId),
      dashboardKeys.all(facilityId),
    ].map((queryKey) => client.invalidateQueries({ queryKey })),
  );
}
