import { AppError, validationError, type PropertyError } from '../../../core/errors/errors.ts';
import type { z } from 'zod';
import type { TSampleFields, ZSample } from '../../../core/schemas/equipment-extras.schemas.ts';
import type { Db, Queryable } from '../../db/db.ts';
import type { Scope } from '../../entities/entity-store.ts';
import { changedFields } from '../audit/audit-diff.ts';
import { writeAudit, type Actor } from '../audit/audit.service.ts';
import { iso } from './equipment-access.ts';
import { getLocation } from './sampling-locations.service.ts';

const DOMAIN = 'Sample';

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
const JSON_FIELDS: readonly Field[] = ['swabArea', 'rinseVolume'];

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

const fieldsOf = (sample: Sample): Record<string, unknown> =>
  Object.fromEntries(FIELDS.map((f) => [f, sample[f]]));

function encode(field: Field, value: unknown) {
  if (value === undefined || value === null) return null;
  return JSON_FIELDS.includes(field) ? JSON.stringify(value) : (value as string | number);
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

/**
 * A name once per location; a batch number once across the facility's samples
 * (DuplicateBatchNumber, spec §5); methods that are live methods of the facility.
 */
async function checkSample(
  q: Queryable,
  facilityId: number,
  locationId: number,
  values: Partial<TSampleFields>,
  exceptId: number | null,
) {
  if (values.name !== undefined) {
    const [other] = await q.query<{ archived: boolean }>(
      `select archived_at is not null as archived from samples
        where sampling_location_id = $1 and lower(name) = lower($2) and ($3::int is null or id <> $3)`,
      [locationId, values.name, exceptId],
    );
    if (other) {
      const errors = [
        {
          property: 'name',
          constraints: { unique: `Sample '${values.name}' already exists at this location` },
        },
      ];
      throw other.archived
        ? new AppError(
            'ArchivedEntryError',
            `Data Archived: sample '${values.name}' of this location is archived. Restore it from the archived list, or choose another name.`,
            { errors },
          )
        : new AppError('DuplicateEntryError', errors[0]!.constraints.unique, { errors });
    }
  }
  if (values.batchNumber) {
    const [other] = await q.query<{ id: number }>(
      `select id from samples where facility_id = $1 and lower(batch_number) = lower($2)
          and ($3::int is null or id <> $3)`,
      [facilityId, values.batchNumber, exceptId],
    );
    if (other)
      throw new AppError('DuplicateBatchNumber', 'Batch number must be unique across samples', {
        errors: [
          {
            property: 'batchNumber',
            constraints: { unique: 'Batch number must be unique across samples' },
          },
        ],
      });
  }
  const problems: PropertyError[] = [];
  for (const [field, table, label] of [
    ['analyticalMethodId', 'analytical_methods', 'analytical method'],
    ['microbialMethodId', 'microbial_methods', 'microbial analytical method'],
  ] as const) {
    const id = values[field];
    if (id === undefined || id === null) continue;
    const [found] = await q.query(
      `select id from ${table} where facility_id = $1 and id = $2 and archived_at is null`,
      [facilityId, id],
    );
    if (!found)
      problems.push({
        property: field,
        constraints: { reference: `No ${label} with id ${id} in this facility` },
      });
  }
  if (problems.length > 0) throw validationError(problems);
}

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
    await checkSample(tx, scope.facilityId, path.locationId, fields, null);
    // A swab sample covers the location's swab area unless it says otherwise.
    const values: Partial<TSampleFields> = {
      ...fields,
      swabArea: fields.swabArea ?? (fields.sampleType === 'swab' ? location.swabArea : null),
    };
    const [row] = await tx.query<Record<string, unknown>>(
      `insert into samples (facility_id, equipment_id, sampling_location_id, created_by, updated_by,
         ${FIELDS.map(column).join(', ')})
       values ($1, $2, $3, $4, $4, ${FIELDS.map((_, i) => `$${i + 5}`).join(', ')}) returning *`,
      [
        scope.facilityId,
        path.equipmentId,
        path.locationId,
        actor.userId,
        ...FIELDS.map((f) => encode(f, values[f])),
      ],
    );
    const sample = toSample(row!);
    await writeAudit(tx, actor, {
      planId: scope.planId,
      facilityId: scope.facilityId,
      domain: DOMAIN,
      action: 'Create',
      entityId: sample.id,
      reason: reason ?? null,
      newValues: { samplingLocationId: path.locationId, ...fieldsOf(sample) },
    });
    return sample;
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
    const before = await getSample(tx, scope.facilityId, path, sampleId, true);
    if (before.archivedAt)
      throw new AppError(
        'ArchivedEntryError',
        'Data Archived: this sample is archived. Restore it before editing it.',
      );
    if (meta.version !== before.version) throw new AppError('VersionConflictError');
    const { oldValues, newValues } = changedFields(fieldsOf(before), edit);
    await checkSample(tx, scope.facilityId, path.locationId, newValues, sampleId);
    const fields = FIELDS.filter((f) => f in newValues);
    const [row] = await tx.query<Record<string, unknown>>(
      `update samples set ${fields.map((f, i) => `${column(f)} = $${i + 4}`).join(', ')},
              version = version + 1, updated_at = now(), updated_by = $3
        where facility_id = $1 and id = $2 returning *`,
      [scope.facilityId, sampleId, actor.userId, ...fields.map((f) => encode(f, newValues[f]))],
    );
    await writeAudit(tx, actor, {
      planId: scope.planId,
      facilityId: scope.facilityId,
      domain: DOMAIN,
      action: 'Update',
      entityId: sampleId,
      reason: meta.reason,
      oldValues,
      newValues,
    });
    return toSample(row!);
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
    const before = await getSample(tx, scope.facilityId, path, sampleId, true);
    if (Boolean(before.archivedAt) === archived)
      throw new AppError(
        'NothingToChangeError',
        archived ? 'This sample is already archived.' : 'This sample is not archived.',
      );
    if (!archived) {
      const location = await getLocation(tx, scope.facilityId, path.equipmentId, path.locationId);
      if (location.archivedAt)
        throw new AppError(
          'ArchivedEntryError',
          'Data Archived: the sampling location of this sample is archived. Restore it first.',
        );
    }
    const [row] = await tx.query<Record<string, unknown>>(
      `update samples
          set archived_at = ${archived ? 'now()' : 'null'}, archived_by = ${archived ? '$3' : 'null'},
              archive_reason = ${archived ? '$4' : 'null'}, version = version + 1, updated_at = now(), updated_by = $3
        where facility_id = $1 and id = $2 returning *`,
      archived
        ? [scope.facilityId, sampleId, actor.userId, reason]
        : [scope.facilityId, sampleId, actor.userId],
    );
    await writeAudit(tx, actor, {
      planId: scope.planId,
      facilityId: scope.facilityId,
      domain: DOMAIN,
      action: archived ? 'Archive' : 'Unarchive',
      entityId: sampleId,
      reason,
      oldValues: { archived: !archived },
      newValues: { archived },
    });
    return toSample(row!);
  });
}
