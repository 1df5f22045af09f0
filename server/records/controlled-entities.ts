import { actionOf, type EntityDef } from '#core/entities/entity.ts';
import { ENTITY_DEFS } from '#core/entities/defs/index.ts';
import type { Queryable } from '../db/db.ts';
import type { AsOfOptions } from '../entities/entity-history.ts';
import type { Actor } from '../db/audit-write.ts';
import { allEntities, selectList, toRecord, type EntityRecord } from '../entities/entity-store.ts';
import { integrityOf, shownState, type Integrity } from './record-integrity.ts';
import {
  controlledStates,
  recordEdit,
  versionNumbers,
  versionsInForce,
  registerDocumentType,
  type ControlledVersionState,
  type DocumentTypeRegistration,
} from './controlled.ts';
import type { TControlledDocumentType } from '#core/schemas/signatures.schemas.ts';

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

/**
 * Declares every controlled entity's document type to the signature service (at start);
 * `hooks`: what the approval of a type does besides (a MAC formula's stores the limits
 * snapshot it puts in force) and what its Submit and its approval need, given by the module
 * that owns it.
 */
export function registerControlledEntities(
  defs: readonly EntityDef[] = ENTITY_DEFS,
  hooks: Partial<
    Record<
      TControlledDocumentType,
      Pick<DocumentTypeRegistration, 'onApproved' | 'beforeSubmit' | 'beforeApprove'>
    >
  > = {},
): void {
  for (const def of defs) {
    if (!def.controlled) continue;
    registerDocumentType(def.controlled.documentType, {
      ...hooks[def.controlled.documentType],
      ...(def.controlled.changeControlled
        ? { changeControlled: { pluralLabel: def.pluralLabel } }
        : {}),
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
      liveContent: async (q, facilityId, ids) => {
        const rows = await q.query<Record<string, unknown>>(
          `select ${selectList(def)} from ${def.table} where facility_id = $1 and id = any($2::int[])`,
          [facilityId, [...ids]],
        );
        return new Map(rows.map((row) => [row.id as number, contentOf(def, toRecord(def, row))]));
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

export interface ControlledReadOptions extends AsOfOptions {
  /**
   * 'inForce' (a plain read): the approved version's content and state; 'draft' (version=draft,
   * and what a save answers): the record as last saved, the version an edit changes. Before
   * any approval both answer the latest.
   */
  read?: 'inForce' | 'draft';
  /**
   * The signatures' MAC key: with it a read carries the record's integrity. A read as of a
   * moment carries the record's integrity as it is now: a record changed behind the app reads as
   * broken whatever moment is asked for, never as Approved.
   */
  key?: Buffer;
}

type ControlledRead = ControlledVersionState &
  Integrity & {
    inForceVersionNumber: number | null;
    draftVersionNumber: number | null;
  };

/**
 * Records of a controlled entity as the read asks: on a plain read the version in force, its
 * declared fields from the content the signers approved (EU GMP Annex 11 §10, 21 CFR
 * 211.100(a): an unapproved change is not in force); with the state of the version read and
 * `inForceVersionNumber` / `draftVersionNumber`, so a screen can label it.
 */
export async function withControlledState<T extends { id: number }>(
  q: Queryable,
  def: EntityDef,
  facilityId: number,
  records: T[],
  { read = 'inForce', key, ...options }: ControlledReadOptions = {},
): Promise<(T & Partial<ControlledRead>)[]> {
  if (!def.controlled || records.length === 0) return records;
  const ref = { facilityId, documentType: def.controlled.documentType };
  const ids = records.map((r) => r.id);
  const [states, inForce, integrity] = await Promise.all([
    controlledStates(q, ref, ids, options),
    versionsInForce(q, ref, ids, options),
    key ? integrityOf(q, key, ref, ids) : undefined,
  ]);
  // A record saved before it was controlled reads as version 1 Being Built.
  const fallback: ControlledVersionState = {
    status: 'BeingBuilt',
    signatureState: null,
    versionNumber: 1,
  };
  return records.map((r) => {
    const latest = states.get(r.id) ?? fallback;
    const approved = inForce.get(r.id);
    const versions = versionNumbers(latest, approved);
    const checked = integrity?.(r.id);
    if (read === 'draft' || !approved) return { ...r, ...shownState(latest, checked), ...versions };
    const { content, ...state } = approved;
    return { ...r, ...approvedFields(def, content), ...shownState(state, checked), ...versions };
  });
}

/** The declared fields (and additional properties) of a version's content, as a record has them. */
function approvedFields(def: EntityDef, content: Record<string, unknown>): Record<string, unknown> {
  const fields = Object.fromEntries(
    def.fields.filter((f) => f.name in content).map((f) => [f.name, content[f.name]]),
  );
  if (def.propertyTarget && 'additionalProperties' in content)
    fields.additionalProperties = content.additionalProperties ?? {};
  return fields;
}

/**
 * Records of a controlled entity as their versions in force have them (now, or at `asOf`), for
 * what computes from them (a train's equipment in the productions, protocols and coverage on
 * it): records never approved are left out, since a draft is in force nowhere (21 CFR
 * 211.100(a), EU GMP Annex 11 §10); the others carry the approved declared fields.
 */
export async function recordsInForce<T extends { id: number }>(
  q: Queryable,
  def: EntityDef,
  facilityId: number,
  records: readonly T[],
  options: { asOf?: string | Date | undefined } = {},
): Promise<T[]> {
  if (!def.controlled) return [...records];
  if (records.length === 0) return [];
  const inForce = await versionsInForce(
    q,
    { facilityId, documentType: def.controlled.documentType },
    records.map((r) => r.id),
    options,
  );
  return records.flatMap((r) => {
    const approved = inForce.get(r.id);
    return approved ? [{ ...r, ...approvedFields(def, approved.content) }] : [];
  });
}

/** The facility's live records of a controlled entity (now, or at `asOf`) as in force then. */
export async function allEntitiesInForce(
  q: Queryable,
  def: EntityDef,
  facilityId: number,
  options: AsOfOptions = {},
): Promise<EntityRecord[]> {
  const records = await allEntities(q, def, facilityId, options);
  return recordsInForce(q, def, facilityId, records, options);
}
