import { AppError } from '#core/errors/errors.ts';
import type { FieldsEvent, RecordDomain } from '#core/audit/audit-events.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import { columnOf } from '#core/entities/field.ts';
import type { Queryable, SqlValue } from '../db/db.ts';
import { changedFields } from '#server/db/audit-diff.ts';
import { writeAudit, type Actor } from '../db/audit-write.ts';
import { onEntitySaved } from '../records/controlled-entities.ts';
import { auditValuesOf, runAfterSave, runBeforeArchive, runBeforeSave } from './archive-hooks.ts';
import { checkRecord, checkReferences, checkUnique } from './entity-checks.ts';
import {
  checkedProperties,
  editedProperties,
  flatProperties,
  touchesProperties,
} from './entity-properties.ts';
import {
  facilityScope,
  ownerColumn,
  ownerId,
  parentField,
  valuesInScope,
  type RecordScope,
} from './entity-scope.ts';
import { NOW, updateVersioned, type Assigned } from './versioned-update.ts';
import { encode, getEntity, selectList, toRecord, type EntityRecord } from './entity-store.ts';

/**
 * Writes of a declared record. Each runs in the caller's transaction (`tx`): the caller opens it,
 * so that a write and whatever goes with it (a document, an idempotency key, other records)
 * commit or roll back together.
 */
interface WriteOptions {
  actor: Actor;
  def: EntityDef;
  /** The facility (and parent) or the plan, as the declaration's scope asks. */
  scope: RecordScope;
}

export interface CreateOptions extends WriteOptions {
  values: Record<string, unknown>;
  /** Why, where the call takes one (recorded in the audit trail). */
  reason?: string | null | undefined;
}

export interface UpdateOptions extends WriteOptions {
  id: number;
  edit: Record<string, unknown>;
  reason: string;
  /** The version the edit was made from; a stale one is refused with VersionConflictError. */
  version?: number | undefined;
  /**
   * The audit event, where an edit has a name of its own (a location's Assess); else the
   * record's Update. The domain is the record's, named again so that the pair is checked.
   */
  action?: FieldsEvent<RecordDomain> | undefined;
}

export interface ArchiveEntityOptions extends WriteOptions {
  id: number;
  reason: string;
  /** The caller has seen what archiving changes (where the record is used) and goes ahead. */
  confirmImpact?: boolean | undefined;
}

export type RestoreOptions = WriteOptions & { id: number; reason: string };

/** A controlled record's save is also its working version (server/records/controlled-entities.ts). */
async function savedInScope(
  tx: Queryable,
  actor: Actor,
  def: EntityDef,
  scope: RecordScope,
  record: EntityRecord,
): Promise<void> {
  const inFacility = facilityScope(def, scope);
  if (inFacility) await onEntitySaved(tx, actor, def, inFacility, record);
}

/** A child record's audit rows name its parent, so that the parent's trail finds them. */
function parentOf(def: EntityDef, record: Record<string, unknown>): Record<string, unknown> {
  const parent = parentField(def);
  return parent ? { [parent]: record[parent] } : {};
}

export async function createEntity(
  tx: Queryable,
  { actor, def, scope, values: sent, reason }: CreateOptions,
): Promise<EntityRecord> {
  const values = valuesInScope(def, scope, sent);
  checkRecord(def, values);
  await checkUnique(tx, def, scope, values, null);
  await checkReferences(tx, def, scope, values);
  await runBeforeSave(tx, def, scope, { record: values, changed: values, id: null });
  const properties = await checkedProperties(
    tx,
    def,
    ownerId(def, scope),
    undefined,
    values.additionalProperties,
  );
  const columns = def.fields.map(columnOf);
  const params: SqlValue[] = def.fields.map((f) => encode(f, values[f.name]));
  if (properties) {
    columns.push('additional_properties');
    params.push(JSON.stringify(properties));
  }
  const placeholders = params.map((_, i) => `$${i + 3}`).join(', ');
  const [row] = await tx.query<Record<string, unknown>>(
    `insert into ${def.table} (${ownerColumn(def)}, created_by, updated_by, ${columns.join(', ')})
     values ($1, $2, $2, ${placeholders}) returning ${selectList(def)}`,
    [ownerId(def, scope), actor.userId, ...params],
  );
  const record = toRecord(def, row!);
  await savedInScope(tx, actor, def, scope, record);
  await writeAudit(tx, actor, {
    planId: scope.planId,
    facilityId: def.scope === 'plan' ? null : ownerId(def, scope),
    domain: def.domain,
    action: 'Create',
    entityId: record.id,
    reason: reason ?? null,
    newValues: {
      ...Object.fromEntries(def.fields.map((f) => [f.name, record[f.name]])),
      ...flatProperties(properties ?? {}),
    },
  });
  await runAfterSave(tx, def, scope, { actor, record, changed: values, id: null });
  return record;
}

/** The record, locked for the write; an archived one cannot be edited. */
export async function editableEntity(
  tx: Queryable,
  def: EntityDef,
  scope: RecordScope,
  id: number,
  version: number | undefined,
): Promise<EntityRecord> {
  const before = await getEntity(tx, def, ownerId(def, scope), id, true);
  if (before.archivedAt)
    throw new AppError(
      'ArchivedEntryError',
      `Data Archived: this ${def.label.toLowerCase()} is archived. Restore it from the archived list before editing it.`,
    );
  if (version !== undefined && version !== before.version)
    throw new AppError('VersionConflictError');
  return before;
}

export async function updateEntity(
  tx: Queryable,
  { actor, def, scope, id, edit, reason, version, action }: UpdateOptions,
): Promise<EntityRecord> {
  const before = await editableEntity(tx, def, scope, id, version);
  const { additionalProperties: incoming, ...fieldEdit } = edit;
  const previous = (before.additionalProperties ?? {}) as Record<string, unknown>;
  const properties = await checkedProperties(tx, def, ownerId(def, scope), previous, incoming);
  const { oldValues, newValues } = changedFields(
    { ...before, ...flatProperties(previous) },
    { ...fieldEdit, ...(properties ? editedProperties(previous, properties) : {}) },
  );
  checkRecord(def, { ...before, ...newValues });
  await checkUnique(tx, def, scope, newValues, id, { ...before, ...newValues });
  await checkReferences(tx, def, scope, newValues);
  await runBeforeSave(tx, def, scope, {
    record: { ...before, ...newValues },
    changed: newValues,
    id,
  });
  const assignments: Record<string, Assigned> = Object.fromEntries(
    def.fields
      .filter((f) => f.name in newValues)
      .map((f) => [columnOf(f), encode(f, newValues[f.name])]),
  );
  if (properties && touchesProperties(newValues))
    assignments.additional_properties = JSON.stringify(properties);
  const row = await updateVersioned(
    tx,
    { table: def.table, ownerColumn: ownerColumn(def), ownerId: ownerId(def, scope), id },
    actor.userId,
    assignments,
    selectList(def),
  );
  const audited = auditValuesOf(def, { oldValues, newValues });
  const entry = {
    planId: scope.planId,
    facilityId: def.scope === 'plan' ? null : ownerId(def, scope),
    entityId: id,
    reason,
    oldValues: { ...parentOf(def, before), ...audited.oldValues },
    newValues: { ...parentOf(def, before), ...audited.newValues },
  };
  if (action) await writeAudit(tx, actor, { ...entry, ...action });
  else await writeAudit(tx, actor, { ...entry, domain: def.domain, action: 'Update' });
  const saved = toRecord(def, row);
  await savedInScope(tx, actor, def, scope, saved);
  await runAfterSave(tx, def, scope, { actor, record: saved, changed: newValues, id });
  return saved;
}

/** Archives a record with a reason, after the hooks of modules that depend on it agree. */
export function archiveEntity(tx: Queryable, options: ArchiveEntityOptions): Promise<EntityRecord> {
  return setArchived(tx, options, true);
}

/** Restores an archived record; its unique fields must still be free. */
export function restoreEntity(tx: Queryable, options: RestoreOptions): Promise<EntityRecord> {
  return setArchived(tx, options, false);
}

async function setArchived(
  tx: Queryable,
  { actor, def, scope, id, reason, ...rest }: ArchiveEntityOptions,
  archived: boolean,
): Promise<EntityRecord> {
  const before = await getEntity(tx, def, ownerId(def, scope), id, true);
  if (Boolean(before.archivedAt) === archived) {
    throw new AppError(
      'NothingToChangeError',
      archived
        ? `This ${def.label.toLowerCase()} is already archived.`
        : `This ${def.label.toLowerCase()} is not archived.`,
    );
  }
  const inFacility = facilityScope(def, scope);
  if (!archived) await checkUnique(tx, def, scope, before, id);
  // Modules that depend on a facility's records register hooks; plan-scoped ones have none yet.
  else if (inFacility)
    await runBeforeArchive(tx, def, inFacility, before, { confirmImpact: rest.confirmImpact });
  const row = await updateVersioned(
    tx,
    { table: def.table, ownerColumn: ownerColumn(def), ownerId: ownerId(def, scope), id },
    actor.userId,
    archived
      ? { archived_at: NOW, archived_by: actor.userId, archive_reason: reason }
      : { archived_at: null, archived_by: null, archive_reason: null },
    selectList(def),
  );
  await writeAudit(tx, actor, {
    planId: scope.planId,
    facilityId: def.scope === 'plan' ? null : ownerId(def, scope),
    domain: def.domain,
    action: archived ? 'Archive' : 'Unarchive',
    entityId: id,
    reason,
    oldValues: { ...parentOf(def, before), archived: !archived },
    newValues: { ...parentOf(def, before), archived },
  });
  const record = toRecord(def, row);
  // A restored record may have to catch up with what changed while it was archived.
  if (!archived) await runAfterSave(tx, def, scope, { actor, record, changed: {}, id });
  return record;
}
