import type { FastifyRequest } from 'fastify';
import { cleanFileName, typeOfFileName } from '#core/attachments/attachment-types.ts';
import { AppError, validationError } from '#core/errors/errors.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import { withinTransaction, type Db, type Queryable } from '#server/db/db.ts';
import { getEntity, type EntityRecord, type Scope } from '#server/entities/entity-store.ts';
import { editableEntity } from '#server/entities/entity-write.ts';
import { ownerColumn, ownerId } from '#server/entities/entity-scope.ts';
import { updateVersioned } from '#server/entities/versioned-update.ts';
import { actorOf } from '#server/http/session-guard.ts';
import type { TDocumentSummary } from '#core/schemas/attachments.schemas.ts';
import { attachDocument, currentDocuments, type Upload } from './attachment-store.ts';
import { uploadOf } from './multipart-body.ts';

/** Records that describe their file (legacy documents) take its name and type from the upload. */
function describeFile(def: EntityDef, upload: Upload): Record<string, unknown> {
  const names = new Set(def.fields.map((f) => f.name));
  const described: Record<string, unknown> = {};
  if (names.has('fileName')) described.fileName = cleanFileName(upload.fileName);
  if (names.has('fileType')) described.fileType = typeOfFileName(upload.fileName);
  return described;
}

/** The values to save: what was sent, plus what the uploaded file says about itself. */
export function valuesWithFile(
  request: FastifyRequest,
  def: EntityDef,
  values: Record<string, unknown>,
): Record<string, unknown> {
  const upload = uploadOf(request);
  return upload ? { ...values, ...describeFile(def, upload) } : values;
}

/**
 * Runs `save` (a create or an edit through the entity store) and stores the request's file as
 * the record's document in the same transaction: when either fails, neither is kept.
 */
export async function saveWithDocument(
  db: Db,
  request: FastifyRequest,
  def: EntityDef,
  scope: Scope,
  reason: string | null,
  save: (db: Db, tx: Queryable) => Promise<EntityRecord>,
): Promise<EntityRecord> {
  const upload = uploadOf(request);
  if (!upload) return save(db, db);
  return db.transaction(async (tx) => {
    const record = await save(withinTransaction(tx, db.kind), tx);
    await attachDocument(tx, actorOf(request), def, scope, record.id, upload, reason);
    return record;
  });
}

/**
 * An edit that only replaces the document still changes the record: its version moves on, so
 * that someone editing from the older version is told (optimistic locking).
 */
export async function touchForDocument(
  tx: Queryable,
  request: FastifyRequest,
  def: EntityDef,
  scope: Scope,
  id: number,
  version: number | undefined,
): Promise<EntityRecord> {
  const before = await editableEntity(tx, def, scope, id, version);
  const target = {
    table: def.table,
    ownerColumn: ownerColumn(def),
    ownerId: ownerId(def, scope),
    id,
    version: before.version,
  };
  await updateVersioned(tx, target, actorOf(request).userId, {});
  return getEntity(tx, def, scope.facilityId, id);
}

function isNothingToChange(error: unknown): boolean {
  return error instanceof AppError && error.errName === 'NothingToChangeError';
}

/** An edit, with the request's file as the new document; replacing only the file is a change too. */
export function editWithDocument(
  db: Db,
  request: FastifyRequest,
  def: EntityDef,
  scope: Scope,
  id: number,
  reason: string,
  version: number | undefined,
  update: (db: Db) => Promise<EntityRecord>,
): Promise<EntityRecord> {
  return saveWithDocument(db, request, def, scope, reason, async (inner, tx) => {
    try {
      return await update(inner);
    } catch (error) {
      if (uploadOf(request) && isNothingToChange(error))
        return touchForDocument(tx, request, def, scope, id, version);
      throw error;
    }
  });
}

/** Restoring is its own change: a file sent with it would otherwise be dropped unseen. */
export function refuseDocumentOnRestore(request: FastifyRequest): void {
  if (!uploadOf(request)) return;
  throw validationError([
    {
      property: 'document',
      constraints: { unArchive: 'Restore the record first, then replace its document' },
    },
  ]);
}

/** Adds each record's current document (or null) to records of an entity that takes one. */
export async function withCurrentDocument<T extends { id: number }>(
  db: Db,
  def: EntityDef,
  facilityId: number,
  records: T[],
): Promise<(T & { document?: TDocumentSummary })[]> {
  if (!def.document || records.length === 0) return records;
  const current = await currentDocuments(
    db,
    facilityId,
    def,
    records.map((r) => r.id),
  );
  return records.map((r) => ({ ...r, document: current.get(r.id) ?? null }));
}
