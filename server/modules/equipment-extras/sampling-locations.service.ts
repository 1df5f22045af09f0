import { AppError, validationError } from '#core/errors/errors.ts';
import type { z } from 'zod';
import { samplingLocationsDef as def } from '#core/entities/defs/sampling-locations.def.ts';
import {
  type TAssessment,
  type ZAssessRequest,
  type TSamplingLocationFields,
  type ZSamplingLocation,
} from '#core/schemas/equipment-extras.schemas.ts';
import { one, type Db, type Queryable } from '#server/db/db.ts';
import { onBeforeSave } from '#server/entities/archive-hooks.ts';
import {
  getEntity,
  listEntities,
  type EntityRecord,
  type Scope,
} from '#server/entities/entity-store.ts';
import {
  archiveEntity,
  createEntity,
  editableEntity,
  restoreEntity,
  updateEntity,
} from '#server/entities/entity-write.ts';
import { changedFields } from '#server/db/audit-diff.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { equipmentOf, iso, liveEquipmentOf } from './equipment-access.ts';
import { assessmentOf } from './location-assessment.ts';

/*
 * Sampling locations are declared records (core/entities/defs/sampling-locations.def.ts), children
 * of their equipment: the record store checks, writes, versions and audits them. What is theirs
 * is here: a sampling type of the same sample type (a hook), the type's swab area as default,
 * the batch create and the risk assessment.
 */

export type SamplingLocation = z.infer<typeof ZSamplingLocation>;

function toLocation(record: EntityRecord): SamplingLocation {
  const r = record as Record<string, unknown>;
  return {
    id: record.id,
    facilityId: record.facilityId,
    equipmentId: Number(r.equipmentId),
    name: String(r.name),
    description: (r.description as string | null) ?? null,
    sampleType: r.sampleType as 'swab' | 'rinse',
    samplingTypeId: r.samplingTypeId === null ? null : Number(r.samplingTypeId),
    swabArea: (r.swabArea as SamplingLocation['swabArea']) ?? null,
    material: (r.material as SamplingLocation['material']) ?? null,
    assessment: (r.assessment as TAssessment | null) ?? null,
    riskScore: r.riskScore === null ? null : Number(r.riskScore),
    riskLevel: (r.riskLevel as SamplingLocation['riskLevel']) ?? null,
    assessedAt: iso(r.assessedAt),
    imageId: r.imageId === null || r.imageId === undefined ? null : Number(r.imageId),
    x: r.x === null || r.x === undefined ? null : Number(r.x),
    y: r.y === null || r.y === undefined ? null : Number(r.y),
    version: record.version,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    archivedAt: record.archivedAt,
    archiveReason: record.archiveReason,
  };
}

/** The write scope of a location of `equipmentId`. */
const inEquipment = (scope: Scope, equipmentId: number) => ({ ...scope, parentId: equipmentId });

/** Every location of an item is one page: an item has a handful of them. */
const ALL = { pageNumber: 1, pageLimit: 100_000 };

export async function listLocations(
  db: Db,
  facilityId: number,
  equipmentId: number,
  archived: boolean,
) {
  await equipmentOf(db, facilityId, equipmentId);
  const page = await listEntities(db, def, facilityId, ALL, archived, {
    filter: (param) => `equipment_id = ${param(equipmentId)}`,
  });
  return page.data.map(toLocation);
}

export async function getLocation(
  q: Queryable,
  facilityId: number,
  equipmentId: number,
  locationId: number,
  lock = false,
): Promise<SamplingLocation> {
  const notFound = new AppError(
    'NotFoundError',
    `Sampling location ${locationId} of equipment ${equipmentId} was not found`,
  );
  const record = await getEntity(q, def, facilityId, locationId, lock).catch(() => {
    throw notFound;
  });
  if (record.equipmentId !== equipmentId) throw notFound;
  return toLocation(record);
}

/** A sampling type of the location's own sample type, checked when either changes. */
onBeforeSave(def.key, 'sampling-type', async (q, _def, scope, { record, changed }) => {
  if (!('samplingTypeId' in changed) && !('sampleType' in changed)) return;
  if (record.samplingTypeId === null || record.samplingTypeId === undefined) return;
  const [type] = await q.query<{ sample_type: string }>(
    `select sample_type from sampling_types where facility_id = $1 and id = $2`,
    [scope.facilityId!, record.samplingTypeId as number],
  );
  if (type && type.sample_type !== record.sampleType)
    throw validationError([
      {
        property: 'samplingTypeId',
        constraints: {
          sampleType: `is a ${type.sample_type} type, the location is ${String(record.sampleType)}`,
        },
      },
    ]);
});

/**
 * A position on a picture: the picture, x and y together (or none), the picture one of the
 * location's own equipment and not removed, x and y fractions of it (0 to 1).
 */
onBeforeSave(def.key, 'image-position', async (q, _def, scope, { record, changed }) => {
  const parts = ['imageId', 'x', 'y'] as const;
  if (!parts.some((p) => p in changed)) return;
  const given = parts.filter((p) => record[p] !== null && record[p] !== undefined);
  if (given.length === 0) return;
  const refuse = (property: string, constraint: string, message: string): never => {
    throw validationError([{ property, constraints: { [constraint]: message } }]);
  };
  for (const p of parts)
    if (!given.includes(p)) refuse(p, 'required', 'A position needs the picture, x and y');
  for (const p of ['x', 'y'] as const) {
    const value = Number(record[p]);
    if (!(value >= 0 && value <= 1)) refuse(p, 'range', 'must be a fraction from 0 to 1');
  }
  const [image] = await q.query<{ equipment_id: number }>(
    `select equipment_id from equipment_images
      where facility_id = $1 and id = $2 and deleted_at is null`,
    [scope.facilityId!, record.imageId as number],
  );
  if (!image || image.equipment_id !== Number(record.equipmentId))
    refuse(
      'imageId',
      'equipment',
      'The picture is not one of this equipment’s pictures (or it was removed)',
    );
});

/** A swab location takes its sampling type's swab area unless it gives its own. */
async function withTypeSwabArea(q: Queryable, facilityId: number, fields: TSamplingLocationFields) {
  if (fields.swabArea !== undefined || fields.sampleType !== 'swab' || !fields.samplingTypeId)
    return fields;
  const [type] = await q.query<{ swab_area: SamplingLocation['swabArea'] }>(
    `select swab_area from sampling_types where facility_id = $1 and id = $2 and archived_at is null`,
    [facilityId, fields.samplingTypeId],
  );
  return { ...fields, swabArea: type?.swab_area ?? null };
}

/** The record store's problems, named where the request holds the values (`data[1].name`). */
async function reportedAt<T>(prefix: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof AppError) || !error.errors) throw error;
    const errors = error.errors.map((e) => ({ ...e, property: `${prefix}${e.property}` }));
    throw new AppError(error.errName, error.message, { errors });
  }
}

/** Adds the locations in the caller's transaction: all of them, or none. */
export async function createLocations(
  tx: Queryable,
  actor: Actor,
  scope: Scope,
  equipmentId: number,
  items: { fields: TSamplingLocationFields; at: string }[],
  reason: string | undefined,
): Promise<SamplingLocation[]> {
  await liveEquipmentOf(tx, scope.facilityId, equipmentId);
  const seen = new Map<string, string>();
  for (const { fields, at: path } of items) {
    const key = fields.name.toLowerCase();
    if (seen.has(key))
      throw new AppError('DuplicateEntryError', `'${fields.name}' is listed twice`, {
        errors: [
          { property: `${path}name`, constraints: { unique: `repeats ${seen.get(key)}name` } },
        ],
      });
    seen.set(key, path);
  }
  const created: SamplingLocation[] = [];
  for (const { fields, at: path } of items) {
    const values = await withTypeSwabArea(tx, scope.facilityId, fields);
    const record = await reportedAt(path, () =>
      createEntity(tx, { actor, def, scope: inEquipment(scope, equipmentId), values, reason }),
    );
    created.push(toLocation(record));
  }
  return created;
}

export async function updateLocation(
  db: Db,
  actor: Actor,
  scope: Scope,
  equipmentId: number,
  locationId: number,
  edit: Partial<TSamplingLocationFields>,
  meta: { reason: string; version: number },
): Promise<SamplingLocation> {
  return db.transaction(async (tx) => {
    await getLocation(tx, scope.facilityId, equipmentId, locationId);
    const write = { actor, def, scope: inEquipment(scope, equipmentId), id: locationId, edit };
    return toLocation(await reportedAt('data.', () => updateEntity(tx, { ...write, ...meta })));
  });
}

export async function setLocationArchived(
  db: Db,
  actor: Actor,
  scope: Scope,
  equipmentId: number,
  locationId: number,
  archived: boolean,
  reason: string,
): Promise<SamplingLocation> {
  return db.transaction(async (tx) => {
    const before = await getLocation(tx, scope.facilityId, equipmentId, locationId);
    if (!archived && before.archivedAt) await liveEquipmentOf(tx, scope.facilityId, equipmentId);
    const write = { actor, def, scope: inEquipment(scope, equipmentId), id: locationId, reason };
    return toLocation(await (archived ? archiveEntity(tx, write) : restoreEntity(tx, write)));
  });
}

/** Records the location's risk assessment and its score; a change of assessment is audited. */
export async function assessLocationRisk(
  db: Db,
  actor: Actor,
  scope: Scope,
  equipmentId: number,
  locationId: number,
  input: Omit<z.infer<typeof ZAssessRequest>, 'equipmentId'>,
): Promise<SamplingLocation> {
  return db.transaction(async (tx) => {
    const equipment = await liveEquipmentOf(tx, scope.facilityId, equipmentId);
    await getLocation(tx, scope.facilityId, equipmentId, locationId);
    const before = toLocation(await editableEntity(tx, def, scope, locationId, input.version));
    const result = await assessmentOf(
      tx,
      scope.facilityId,
      input,
      () => before.material ?? (equipment.material as SamplingLocation['material']),
    );
    const assessed = {
      assessment: result.assessment,
      riskScore: result.riskScore,
      riskLevel: result.riskLevel,
    };
    // The same assessment again is NothingToChangeError, whenever it was made.
    changedFields(before, assessed);
    // When, by the database's clock (the transaction's time, as the write's updated_at).
    const { now } = await one<{ now: string }>(tx, `select now()::text as now`);
    const record = await updateEntity(tx, {
      actor,
      def,
      scope: inEquipment(scope, equipmentId),
      id: locationId,
      edit: { ...assessed, assessedAt: now, assessedBy: actor.userId },
      reason: input.reason,
      action: { domain: 'SamplingLocation', action: 'Assess' },
    });
    return toLocation(record);
  });
}
