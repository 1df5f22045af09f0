import type { EntityDef } from '#core/entities/entity.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { lowerLabel } from '#core/entities/labels.ts';

/** A record as the entity routes return it: the declared fields plus the common columns. */
export interface EntityRecord {
  id: number;
  version: number;
  archivedAt: string | null;
  archiveReason: string | null;
  [field: string]: unknown;
}

export interface EntityPage {
  data: EntityRecord[];
  total: number;
  pageNumber: number;
  pageLimit: number;
}

export interface EntityListQuery {
  pageNumber: number;
  pageLimit: number;
  search?: string | undefined;
  sortBy?: string | undefined;
  sortOrder?: 'asc' | 'desc' | undefined;
  archived?: boolean | undefined;
}

/** The facility a call is scoped to: {F} = /plans/{plan}/facilities/{facility}. */
export interface FacilityScope {
  planId: number;
  facilityId: number;
}

export function facilityPath({ planId, facilityId }: FacilityScope): string {
  return `/plans/${planId}/facilities/${facilityId}`;
}

/** The page as the list answers it: the records under `data`, or the def's spec list key. */
type ListAnswer = Omit<EntityPage, 'data'> & Record<string, unknown>;

export async function listEntities(
  scope: FacilityScope,
  def: EntityDef,
  { archived, ...query }: EntityListQuery,
  signal?: AbortSignal,
): Promise<EntityPage> {
  const path = archived ? `/archived/${def.path}` : `/${def.path}`;
  const answer = await apiRequest<ListAnswer>(`${facilityPath(scope)}${path}`, {
    query: { ...query, search: query.search || undefined },
    action: `Loading ${lowerLabel(def.pluralLabel)}`,
    signal,
  });
  // Intermediates answer under 'intermediates' and, archived, under 'result' (spec §7).
  const key = (archived ? def.archivedListKey : def.listKey) ?? 'data';
  const data = answer[key];
  return {
    data: Array.isArray(data) ? (data as EntityRecord[]) : [],
    total: answer.total,
    pageNumber: answer.pageNumber,
    pageLimit: answer.pageLimit,
  };
}

/**
 * A record: a controlled one as in force, or with `draft` the version an edit changes (the
 * latest, being built, reviewed or approved).
 */
export function getEntity(
  scope: FacilityScope,
  def: EntityDef,
  id: number,
  signal?: AbortSignal,
  read?: 'draft',
): Promise<EntityRecord> {
  return apiRequest<EntityRecord>(`${facilityPath(scope)}/${def.path}/${id}`, {
    action: `Loading the ${lowerLabel(def.label)}`,
    signal,
    ...(read ? { query: { version: read } } : {}),
  });
}

export async function createEntity(
  scope: FacilityScope,
  def: EntityDef,
  body: Record<string, unknown>,
  file?: File | null,
): Promise<EntityRecord> {
  const { result } = await apiRequest<{ result: EntityRecord }>(
    `${facilityPath(scope)}/${def.path}`,
    { method: 'POST', body: withFile(body, file), action: `Adding the ${lowerLabel(def.label)}` },
  );
  return result;
}

/** An edit sends only what changed, the version it was made from, and why. */
export async function updateEntity(
  scope: FacilityScope,
  def: EntityDef,
  id: number,
  body: {
    changes: Record<string, unknown>;
    reason: string;
    version: number;
    file?: File | null | undefined;
  },
): Promise<EntityRecord> {
  const { result } = await apiRequest<{ result: EntityRecord }>(
    `${facilityPath(scope)}/${def.path}/${id}`,
    {
      method: def.verbs === 'put-delete' ? 'PUT' : 'POST',
      body: withFile({ ...body.changes, reason: body.reason, version: body.version }, body.file),
      action: `Editing the ${lowerLabel(def.label)}`,
    },
  );
  return result;
}

export async function archiveEntity(
  scope: FacilityScope,
  def: EntityDef,
  id: number,
  reason: string,
  confirmImpact = false,
): Promise<EntityRecord> {
  // Spec §7: the sampling policy and its attributes are archived by DELETE {id} with a reason.
  const byDelete = def.verbs === 'put-delete';
  const { result } = await apiRequest<{ result: EntityRecord }>(
    `${facilityPath(scope)}/${def.path}/${id}${byDelete ? '' : '/archive'}`,
    {
      method: byDelete ? 'DELETE' : 'PUT',
      body: confirmImpact ? { reason, confirmImpact } : { reason },
      action: `Archiving the ${lowerLabel(def.label)}`,
    },
  );
  return result;
}

/** Spec §4: unarchiving is an update carrying the unArchive flag and a reason. */
export async function restoreEntity(
  scope: FacilityScope,
  def: EntityDef,
  id: number,
  reason: string,
): Promise<EntityRecord> {
  const { result } = await apiRequest<{ result: EntityRecord }>(
    `${facilityPath(scope)}/${def.path}/${id}`,
    {
      method: def.verbs === 'put-delete' ? 'PUT' : 'POST',
      body: { unArchive: true, reason },
      action: `Restoring the ${lowerLabel(def.label)}`,
    },
  );
  return result;
}

/** With a document, the body travels as multipart: the JSON as the `data` part, the file as `document`. */
function withFile(body: Record<string, unknown>, file: File | null | undefined): unknown {
  if (!file) return body;
  const form = new FormData();
  form.append('data', JSON.stringify(body));
  form.append('document', file, file.name);
  return form;
}
