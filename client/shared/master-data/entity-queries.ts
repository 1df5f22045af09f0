import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { actionOf, type EntityDef } from '#core/entities/entity.ts';
import { usePermissions } from '../permissions.ts';
import { entityKeys, invalidateMasterData } from '../query-keys.ts';
import {
  archiveEntity,
  createEntity,
  getEntity,
  listEntities,
  restoreEntity,
  updateEntity,
} from './entity-api.ts';
import type { EntityListQuery, EntityRecord, FacilityScope } from './entity-api.ts';
import { useFacilityScope } from './use-facility-scope.ts';

/** The server's largest page: reference pickers load up to this many records of an entity. */
export const OPTIONS_PAGE_LIMIT = 1000;

export function useEntityList(def: EntityDef, query: EntityListQuery) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: entityKeys.list(scope.facilityId, def, query),
    queryFn: ({ signal }) => listEntities(scope, def, query, signal),
    // Paging and searching keep the last page on screen instead of flashing an empty table.
    placeholderData: keepPreviousData,
  });
}

/** Every active record of an entity (up to the server's page limit), for pickers and names. */
export function entityOptionsQuery(scope: FacilityScope, def: EntityDef, archived = false) {
  return {
    queryKey: entityKeys.options(scope.facilityId, def, archived),
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      listEntities(
        scope,
        def,
        {
          pageNumber: 1,
          pageLimit: OPTIONS_PAGE_LIMIT,
          sortBy: 'name',
          sortOrder: 'asc',
          ...(archived ? { archived } : {}),
        },
        signal,
      ),
  };
}

/**
 * Whether the user may list records of an entity (false until the permissions are known): a
 * screen asks only for what it may read, so a picker or a name lookup of an entity the user may
 * not read stays empty instead of drawing a refusal.
 */
export function useCanListEntity(): (def: EntityDef) => boolean {
  const { can } = usePermissions();
  return (def) => can(def.resource, actionOf(def, 'get'));
}

/**
 * Every active record of an entity for a picker. Nothing is asked when there is no entity or
 * the user may not list it; `forbidden` tells the picker the latter, once the permissions are known.
 */
export function useEntityOptions(def: EntityDef | undefined) {
  const scope = useFacilityScope();
  const { isKnown } = usePermissions();
  const canList = useCanListEntity();
  const allowed = def !== undefined && canList(def);
  const query = useQuery({
    queryKey: def ? entityKeys.options(scope.facilityId, def) : entityKeys.none(scope.facilityId),
    queryFn: ({ signal }) =>
      def
        ? entityOptionsQuery(scope, def).queryFn({ signal })
        : Promise.resolve({ data: [], total: 0, pageNumber: 1, pageLimit: OPTIONS_PAGE_LIMIT }),
    enabled: allowed,
  });
  return Object.assign(query, { forbidden: def !== undefined && isKnown && !allowed });
}

/**
 * The names of archived records of an entity, asked only while `needed` (a mapping still naming
 * an archived record shows its name, not its id).
 */
export function useArchivedNames(def: EntityDef, needed: boolean): Map<number, string> {
  const scope = useFacilityScope();
  const canList = useCanListEntity();
  const archived = useQuery({
    ...entityOptionsQuery(scope, def, true),
    enabled: needed && canList(def),
  });
  return useMemo(
    () => new Map((archived.data?.data ?? []).map((r) => [r.id, String(r.name)])),
    [archived.data],
  );
}

/** What an edit of a record starts from: a controlled record's draft, not its version in force. */
const editedVersion = (def: EntityDef) => (def.controlled ? ('draft' as const) : undefined);

const editedKey = (scope: FacilityScope, def: EntityDef, id: number) =>
  def.controlled
    ? ([...entityKeys.detail(scope.facilityId, def, id), 'draft'] as const)
    : entityKeys.detail(scope.facilityId, def, id);

/** A record as it is now, bypassing the cache: what a version conflict reloads. */
export function fetchLatest(client: QueryClient, scope: FacilityScope, def: EntityDef, id: number) {
  return client.fetchQuery({
    queryKey: editedKey(scope, def, id),
    queryFn: ({ signal }) => getEntity(scope, def, id, signal, editedVersion(def)),
    staleTime: 0,
  });
}

/**
 * A record as a plain read answers it now, bypassing the cache: a controlled record's version
 * in force, what another record takes from it (a production its train's equipment).
 */
export function fetchInForce(
  client: QueryClient,
  scope: FacilityScope,
  def: EntityDef,
  id: number,
) {
  return client.fetchQuery({
    queryKey: entityKeys.detail(scope.facilityId, def, id),
    queryFn: ({ signal }) => getEntity(scope, def, id, signal),
    staleTime: 0,
  });
}

/**
 * The version of a controlled record an edit changes (its draft), loaded fresh when a form
 * opens; disabled for other records, whose read is what an edit changes.
 */
export function useEditedVersion(def: EntityDef, id: number | null) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: editedKey(scope, def, id ?? 0),
    queryFn: ({ signal }) => getEntity(scope, def, id ?? 0, signal, editedVersion(def)),
    enabled: def.controlled !== undefined && id !== null,
    staleTime: 0,
  });
}

export function useCreateEntity(def: EntityDef) {
  const scope = useFacilityScope();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ body, file }: CreateVariables) => createEntity(scope, def, body, file),
    onSuccess: () => invalidateMasterData(client, scope.facilityId),
  });
}

export interface CreateVariables {
  body: Record<string, unknown>;
  /** The reference document, for entities that take one. */
  file?: File | null;
}

export interface UpdateVariables {
  id: number;
  changes: Record<string, unknown>;
  reason: string;
  version: number;
  file?: File | null;
}

export function useUpdateEntity(def: EntityDef) {
  const scope = useFacilityScope();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateVariables) => updateEntity(scope, def, id, body),
    onSuccess: () => invalidateMasterData(client, scope.facilityId),
  });
}

export interface ArchiveVariables {
  record: EntityRecord;
  reason: string;
  /** Archive, or restore from the archived list. */
  restore?: boolean;
  /** The user has seen where the record is used and which limits change (issue 9). */
  confirmImpact?: boolean;
}

export function useArchiveEntity(def: EntityDef) {
  const scope = useFacilityScope();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ record, reason, restore, confirmImpact }: ArchiveVariables) =>
      restore
        ? restoreEntity(scope, def, record.id, reason)
        : archiveEntity(scope, def, record.id, reason, confirmImpact),
    onSuccess: () => invalidateMasterData(client, scope.facilityId),
  });
}
