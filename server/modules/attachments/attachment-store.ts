import { createHash } from 'node:crypto';
import {
  MEDIA_TYPES,
  cleanFileName,
  typeOfFileName,
  type AttachmentType,
} from '#core/attachments/attachment-types.ts';
import { AppError } from '#core/errors/errors.ts';
import { takesDocument, type EntityDef } from '#core/entities/entity.ts';
import type { TAttachment, TDocumentSummary } from '#core/schemas/attachments.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import type { Scope } from '#server/entities/entity-store.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';

/** A file received with a request, already checked by `attachmentProblems`. */
export interface Upload {
  fileName: string;
  content: Buffer;
}

const COLUMNS = `a.id, a.owner_kind, a.owner_id, a.file_name, a.file_type, a.media_type, a.size_bytes,
  a.sha256, a.uploaded_at, a.uploaded_by, a.archived_at, a.archive_reason, a.superseded_by,
  nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as uploaded_by_name`;
const FROM = `attachments a left join users u on u.id = a.uploaded_by`;

function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
}

function toAttachment(row: Record<string, unknown>): TAttachment {
  return {
    id: Number(row.id),
    ownerKind: String(row.owner_kind),
    ownerId: Number(row.owner_id),
    fileName: String(row.file_name),
    fileType: row.file_type as AttachmentType,
    mediaType: String(row.media_type),
    sizeBytes: Number(row.size_bytes),
    sha256: String(row.sha256),
    uploadedAt: iso(row.uploaded_at)!,
    uploadedBy: row.uploaded_by === null ? null : Number(row.uploaded_by),
    uploadedByName: (row.uploaded_by_name as string | null) ?? null,
    status: row.archived_at ? 'Superseded' : 'Current',
    archivedAt: iso(row.archived_at),
    archiveReason: (row.archive_reason as string | null) ?? null,
    supersededBy: row.superseded_by === null ? null : Number(row.superseded_by),
  };
}

/**
 * Stores `upload` as the current document of a record, inside the caller's transaction, with its
 * audit row. A document it replaces is archived with the edit's reason and kept.
 */
export async function attachDocument(
  tx: Queryable,
  actor: Actor,
  def: EntityDef,
  scope: Scope,
  ownerId: number,
  upload: Upload,
  reason: string | null,
): Promise<TAttachment> {
  if (!takesDocument(def)) throw new Error(`${def.label} records take no document`);
  const fileType = typeOfFileName(upload.fileName)!;
  const sha256 = createHash('sha256').update(upload.content).digest('hex');
  const [previous] = await tx.query<{ id: number; file_name: string; sha256: string }>(
    `select id, file_name, sha256 from attachments
      where facility_id = $1 and owner_kind = $2 and owner_id = $3 and archived_at is null for update`,
    [scope.facilityId, def.path, ownerId],
  );
  if (previous) {
    await tx.query(
      `update attachments set archived_at = now(), archived_by = $2, archive_reason = $3 where id = $1`,
      [previous.id, actor.userId, reason],
    );
  }
  const [inserted] = await tx.query<{ id: number }>(
    `insert into attachments (facility_id, owner_kind, owner_id, file_name, media_type, file_type,
       size_bytes, sha256, content, uploaded_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning id`,
    [
      scope.facilityId,
      def.path,
      ownerId,
      cleanFileName(upload.fileName),
      MEDIA_TYPES[fileType],
      fileType,
      upload.content.length,
      sha256,
      upload.content,
      actor.userId,
    ],
  );
  if (previous) {
    await tx.query(`update attachments set superseded_by = $2 where id = $1`, [
      previous.id,
      inserted!.id,
    ]);
  }
  const attachment = await getAttachment(tx, scope.facilityId, def, ownerId, inserted!.id);
  await writeAudit(tx, actor, {
    planId: scope.planId,
    facilityId: scope.facilityId,
    domain: def.domain,
    action: previous ? 'ReplaceDocument' : 'AttachDocument',
    entityId: ownerId,
    reason,
    oldValues: previous
      ? { documentId: previous.id, fileName: previous.file_name, sha256: previous.sha256 }
      : null,
    newValues: {
      documentId: attachment.id,
      fileName: attachment.fileName,
      fileType: attachment.fileType,
      sizeBytes: attachment.sizeBytes,
      sha256: attachment.sha256,
    },
  });
  return attachment;
}

/** Every document of a record, the current one first, then the superseded ones newest first. */
export async function listAttachments(
  q: Queryable,
  facilityId: number,
  def: EntityDef,
  ownerId: number,
): Promise<TAttachment[]> {
  const rows = await q.query<Record<string, unknown>>(
    `select ${COLUMNS} from ${FROM}
      where a.facility_id = $1 and a.owner_kind = $2 and a.owner_id = $3
      order by a.archived_at is not null, a.id desc`,
    [facilityId, def.path, ownerId],
  );
  return rows.map(toAttachment);
}

export async function getAttachment(
  q: Queryable,
  facilityId: number,
  def: EntityDef,
  ownerId: number,
  id: number,
): Promise<TAttachment> {
  const [row] = await q.query<Record<string, unknown>>(
    `select ${COLUMNS} from ${FROM}
      where a.facility_id = $1 and a.owner_kind = $2 and a.owner_id = $3 and a.id = $4`,
    [facilityId, def.path, ownerId, id],
  );
  if (!row) throw new AppError('NotFoundError', `Document ${id} of this record was not found`);
  return toAttachment(row);
}

/** The bytes of a document; `id` null means the current one. */
export async function readAttachment(
  q: Queryable,
  facilityId: number,
  def: EntityDef,
  ownerId: number,
  id: number | null,
): Promise<{ fileName: string; mediaType: string; content: Buffer }> {
  const [row] = await q.query<{ file_name: string; media_type: string; content: Uint8Array }>(
    `select file_name, media_type, content from attachments
      where facility_id = $1 and owner_kind = $2 and owner_id = $3
        and ${id === null ? 'archived_at is null' : 'id = $4'}`,
    id === null ? [facilityId, def.path, ownerId] : [facilityId, def.path, ownerId, id],
  );
  if (!row) {
    throw new AppError(
      'NotFoundError',
      id === null
        ? `This ${def.label.toLowerCase()} has no file`
        : `Document ${id} of this record was not found`,
    );
  }
  return { fileName: row.file_name, mediaType: row.media_type, content: Buffer.from(row.content) };
}

/** The current document of each of `ownerIds`, in one query, for lists. */
export async function currentDocuments(
  q: Queryable,
  facilityId: number,
  def: EntityDef,
  ownerIds: number[],
): Promise<Map<number, TDocumentSummary>> {
  const rows = await q.query<{
    id: number;
    owner_id: number;
    file_name: string;
    file_type: string;
  }>(
    `select id, owner_id, file_name, file_type from attachments
      where facility_id = $1 and owner_kind = $2 and owner_id = any($3::int[]) and archived_at is null`,
    [facilityId, def.path, ownerIds],
  );
  return new Map(
    rows.map((r) => [
      Number(r.owner_id),
      { id: Number(r.id), fileName: r.file_name, fileType: r.file_type as AttachmentType },
    ]),
  );
}
