import { createHash } from 'node:crypto';
import { AppError, validationError } from '#core/errors/errors.ts';
import {
  MAX_IMAGE_BYTES,
  MAX_IMAGES_PER_EQUIPMENT,
} from '#core/schemas/equipment-extras.schemas.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import type { Scope } from '#server/entities/entity-store.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import { equipmentOf, iso, liveEquipmentOf } from './equipment-access.ts';

type Mime = 'image/png' | 'image/jpeg';

const COLUMNS = `id, equipment_id, name, mime_type, size_bytes, sha256, image_data, created_at, created_by`;

function toImage(row: Record<string, unknown>) {
  return {
    id: Number(row.id),
    equipmentId: Number(row.equipment_id),
    name: (row.name as string | null) ?? null,
    mimeType: row.mime_type as Mime,
    sizeBytes: Number(row.size_bytes),
    sha256: String(row.sha256),
    imageData: `data:${String(row.mime_type)};base64,${String(row.image_data)}`,
    createdAt: iso(row.created_at)!,
    createdBy: row.created_by === null ? null : Number(row.created_by),
  };
}

/** A file is what its first bytes say, not what its data URL claims (PNG and JPEG signatures). */
function sniff(bytes: Buffer): Mime | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return null;
}

const badImage = (message: string) =>
  validationError([{ property: 'imageData', constraints: { image: message } }]);

export async function listImages(q: Queryable, facilityId: number, equipmentId: number) {
  await equipmentOf(q, facilityId, equipmentId);
  const rows = await q.query<Record<string, unknown>>(
    `select ${COLUMNS} from equipment_images
      where facility_id = $1 and equipment_id = $2 and deleted_at is null order by id`,
    [facilityId, equipmentId],
  );
  return rows.map(toImage);
}

export async function addImage(
  db: Db,
  actor: Actor,
  scope: Scope,
  equipmentId: number,
  input: { imageData: string; name?: string | undefined; reason: string },
) {
  const comma = input.imageData.indexOf(',');
  const declared = input.imageData.slice(5, input.imageData.indexOf(';')) as Mime;
  const bytes = Buffer.from(input.imageData.slice(comma + 1), 'base64');
  if (bytes.length > MAX_IMAGE_BYTES) throw badImage('The image is larger than 5 MB');
  const actual = sniff(bytes);
  if (actual === null) throw badImage('is neither a PNG nor a JPEG image');
  if (actual !== declared) throw badImage(`is a ${actual} image sent as ${declared}`);
  return db.transaction(async (tx) => {
    // Locks the item, so that two uploads cannot both pass the count.
    await tx.query('select id from equipment where facility_id = $1 and id = $2 for update', [
      scope.facilityId,
      equipmentId,
    ]);
    await liveEquipmentOf(tx, scope.facilityId, equipmentId);
    const [count] = await tx.query<{ n: number }>(
      'select count(*)::int as n from equipment_images where equipment_id = $1 and deleted_at is null',
      [equipmentId],
    );
    if ((count?.n ?? 0) >= MAX_IMAGES_PER_EQUIPMENT)
      throw badImage(`An item of equipment holds at most ${MAX_IMAGES_PER_EQUIPMENT} images`);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const [row] = await tx.query<Record<string, unknown>>(
      `insert into equipment_images (facility_id, equipment_id, name, mime_type, size_bytes, sha256, image_data, created_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8) returning ${COLUMNS}`,
      [
        scope.facilityId,
        equipmentId,
        input.name ?? null,
        actual,
        bytes.length,
        sha256,
        bytes.toString('base64'),
        actor.userId,
      ],
    );
    const image = toImage(row!);
    await writeAudit(tx, actor, {
      planId: scope.planId,
      facilityId: scope.facilityId,
      domain: 'EquipmentImage',
      action: 'Create',
      entityId: image.id,
      reason: input.reason,
      newValues: {
        equipmentId,
        name: image.name,
        mimeType: actual,
        sizeBytes: bytes.length,
        sha256,
      },
    });
    return image;
  });
}

/** Removes an image from the item's images; the row stays, with who removed it, when and why. */
export async function deleteImage(
  db: Db,
  actor: Actor,
  scope: Scope,
  equipmentId: number,
  imageId: number,
  reason: string,
) {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<Record<string, unknown>>(
      `select ${COLUMNS}, deleted_at from equipment_images
        where facility_id = $1 and equipment_id = $2 and id = $3 for update`,
      [scope.facilityId, equipmentId, imageId],
    );
    if (!row || row.deleted_at !== null)
      throw new AppError(
        'NotFoundError',
        `Image ${imageId} of equipment ${equipmentId} was not found`,
      );
    await tx.query(
      `update equipment_images set deleted_at = now(), deleted_by = $2, delete_reason = $3 where id = $1`,
      [imageId, actor.userId, reason],
    );
    const image = toImage(row);
    await writeAudit(tx, actor, {
      planId: scope.planId,
      facilityId: scope.facilityId,
      domain: 'EquipmentImage',
      action: 'Delete',
      entityId: imageId,
      reason,
      oldValues: { equipmentId, name: image.name, sha256: image.sha256 },
    });
    return image;
  });
}
