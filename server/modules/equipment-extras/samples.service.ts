import { AppError } from '#core/errors/errors.ts';
import type { z } from 'zod';
import { samplesDef as def } from '#core/entities/defs/samples.def.ts';
import type { TSampleFields, ZSample } from '#core/schemas/equipment-extras.schemas.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { onBeforeSave } from '#server/entities/archive-hooks.ts';
import type { Scope } from '#server/entities/entity-store.ts';
import {
  archiveEntity,
  createEntity,
  restoreEntity,
  updateEntity,
} from '#server/entities/entity-write.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { iso } from './equipment-access.ts';
import { getLocation } from './sampling-locations.service.ts';

const FIELDS = [
  'name',
  'sampleType',
  'analyticalTest',
  'analyticalMethodId',
  'microbialMethodId',
  'swabArea',
  'rinseVolume',
  'batchNumber',
  'description',
] as const;
type Field = (typeof FIELDS)[number];
const column = (f: Field) => f.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`);

export type Sample = z.infer<typeof ZSample>;

function toSample(row: Record<string, unknown>): Sample {
  const fields = Object.fromEntries(FIELDS.map((f) => [f, row[column(f)] ?? null]));
  return {
    id: Number(row.id),
    facilityId: Number(row.facility_id),
    equipmentId: Number(row.equipment_id),
    samplingLocationId: Number(row.sampling_location_id),
    ...(fields as Pick<Sample, Field>),
    version: Number(row.version),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
    archivedAt: iso(row.archived_at),
    archiveReason: (row.archive_reason as string | null) ?? null,
  };
}

interface Path {
  equipmentId: number;
  locationId: number;
}

export async function listSamples(q: Queryable, facilityId: number, path: Path, archived: boolean) {
  await getLocation(q, facilityId, path.equipmentId, path.locationId);
  const rows = await q.query<Record<string, unknown>>(
    `select * from samples where facility_id = $1 and sampling_location_id = $2
        and archived_at is ${archived ? 'not null' : 'null'} order by lower(name), id`,
    [facilityId, path.locationId],
  );
  return rows.map(toSample);
}

async function getSample(
  q: Queryable,
  facilityId: number,
  path: Path,
  sampleId: number,
  lock = false,
): Promise<Sample> {
  const [row] = await q.query<Record<string, unknown>>(
    `select * from samples where facility_id = $1 and equipment_id = $2 and sampling_location_id = $3
        and id = $4 ${lock ? 'for update' : ''}`,
    [facilityId, path.equipmentId, path.locationId, sampleId],
  );
  if (!row)
    throw new AppError(
      'NotFoundError',
      `Sample ${sampleId} of this sampling location was not found`,
    );
  return toSample(row);
}

/** A batch number once across the facility's samples and sample results (DuplicateBatchNumber, spec §5). */
onBeforeSave(def.key, 'batch-number', async (q, _def, scope, { changed, id }) => {
  const batchNumber = changed.batchNumber;
  if (typeof batchNumber !== 'string' || batchNumber === '') return;
  const [other] = await q.query<{ id: number }>(
    `select id from samples where facility_id = $1 and lower(batch_number) = lower($2)
        and ($3::int is null or id <> $3)
     union all
     select id from sample_results where facility_id = $1 and lower(batch_number) = lower($2)`,
    [scope.facilityId!, batchNumber, id],
  );
  if (!other) return;
  const message = 'Batch number must be unique across samples';
  throw new AppError('DuplicateBatchNumber', message, {
    errors: [{ property: 'batchNumber', constraints: { unique: message } }],
  });
});

const scopeOf = (scope: Scope, path: Path) => ({ ...scope, parentId: path.locationId });

export async function createSample(
  db: Db,
  actor: Actor,
  scope: Scope,
  path: Path,
  fields: TSampleFields,
  reason: string | undefined,
): Promise<Sample> {
  return db.transaction(async (tx) => {
    const location = await getLocation(tx, scope.facilityId, path.equipmentId, path.locationId);
    if (location.archivedAt)
      throw new AppError(
        'ArchivedEntryError',
        'Data Archived: this sampling location is archived. Restore it before adding samples.',
      );
    // A swab sample covers the location's swab area unless it says otherwise.
    const values = {
      ...fields,
      equipmentId: path.equipmentId,
      swabArea: fields.swabArea ?? (fields.sampleType === 'swab' ? location.swabArea : null),
    };
    const made = await createEntity(tx, {
      actor,
      def,
      scope: scopeOf(scope, path),
      values,
      reason,
    });
    return made as unknown as Sample;
  });
}

export async function updateSample(
  db: Db,
  actor: Actor,
  scope: Scope,
  path: Path,
  sampleId: number,
  edit: Partial<TSampleFields>,
  meta: { reason: string; version: number },
): Promise<Sample> {
  return db.transaction(async (tx) => {
    await getSample(tx, scope.facilityId, path, sampleId);
    const write = { actor, def, scope: scopeOf(scope, path), id: sampleId, edit, ...meta };
    return (await updateEntity(tx, write)) as unknown as Sample;
  });
}

export async function setSampleArchived(
  db: Db,
  actor: Actor,
  scope: Scope,
  path: Path,
  sampleId: number,
  archived: boolean,
  reason: string,
): Promise<Sample> {
  return db.transaction(async (tx) => {
    const before = await getSample(tx, scope.facilityId, path, sampleId);
    if (!archived && before.archivedAt) {
      const location = await getLocation(tx, scope.facilityId, path.equipmentId, path.locationId);
      if (location.archivedAt)
        throw new AppError(
          'ArchivedEntryError',
          'Data Archived: the sampling location of this sample is archived. Restore it first.',
        );
    }
    const write = { actor, def, scope: scopeOf(scope, path), id: sampleId, reason };
    const record = await (archived ? archiveEntity(tx, write) : restoreEntity(tx, write));
    return record as unknown as Sample;
  });
}
