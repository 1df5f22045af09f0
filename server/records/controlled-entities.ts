import { actionOf, type EntityDef } from '#core/entities/entity.ts';
import { ENTITY_DEFS } from '#core/entities/defs/index.ts';
import type { Queryable } from '../db/db.ts';
import type { AsOfOptions } from '../entities/entity-history.ts';
import type { Actor } from '../db/audit-write.ts';
import {
  controlledStates,
  recordEdit,
  registerDocumentType,
  type ControlledVersionState,
} from './controlled.ts';

/*
 * What the record mechanism (server/entities) does for a declaration with `controlled`: every
 * save is recorded as the working version (refused while under review), every read carries the
 * latest version's status.
 */

interface Saved {
  id: number;
  [field: string]: unknown;
}

/** A version's content: the declared fields as saved (what the signers see). */
function contentOf(def: EntityDef, record: Saved): Record<string, unknown> {
  const content = Object.fromEntries(def.fields.map((f) => [f.name, record[f.name] ?? null]));
  if (def.propertyTarget) content.additionalProperties = record.additionalProperties ?? {};
  return content;
}

function titleOf(def: EntityDef, content: Record<string, unknown>): string {
  const parts = [...def.unique, 'name'].map((name) => content[name]);
  return [...new Set(parts.filter((p): p is string => typeof p === 'string' && p !== ''))].join(
    ' ',
  );
}

/** Declares every controlled entity's document type to the signature service (at start). */
export function registerControlledEntities(defs: readonly EntityDef[] = ENTITY_DEFS): void {
  for (const def of defs) {
    if (!def.controlled) continue;
    registerDocumentType(def.controlled.documentType, {
      resource: def.resource,
      action: actionOf(def, 'modify'),
      title: (content) => titleOf(def, content),
      isArchived: async (q, ref) => {
        const [row] = await q.query<{ archived: boolean }>(
          `select archived_at is not null as archived from ${def.table} where facility_id = $1 and id = $2`,
          [ref.facilityId, ref.documentId],
        );
        return row?.archived ?? false;
      },
      recordVersion: async (q, ref) => {
        const [row] = await q.query<{ version: number }>(
          `select version from ${def.table} where facility_id = $1 and id = $2`,
          [ref.facilityId, ref.documentId],
        );
        return row?.version ?? null;
      },
    });
  }
}

/** Called by the entity store in the save's transaction, after the row is written. */
export async function onEntitySaved(
  tx: Queryable,
  actor: Actor,
  def: EntityDef,
  scope: { planId: number; facilityId: number },
  record: Saved,
): Promise<void> {
  if (!def.controlled) return;
  const content = contentOf(def, record);
  await recordEdit(
    tx,
    actor,
    { ...scope, documentType: def.controlled.documentType, documentId: record.id },
    content,
    titleOf(def, content),
  );
}

/** Records of a controlled entity with their status, signature state and version number. */
export async function withControlledState<T extends { id: number }>(
  q: Queryable,
  def: EntityDef,
  facilityId: number,
  records: T[],
  options: AsOfOptions = {},
): Promise<(T & Partial<ControlledVersionState>)[]> {
  if (!def.controlled || records.length === 0) return records;
  const states = await controlledStates(
    q,
    { facilityId, documentType: def.controlled.documentType },
    records.map((r) => r.id),
    options,
  );
  // A record saved before it was controlled reads as version 1 Being Built.
  const fallback: ControlledVersionState = {
    status: 'BeingBuilt',
    signatureState: null,
    versionNumber: 1,
  };
  return records.map((r) => ({ ...r, ...(states.get(r.id) ?? fallback) }));
}
