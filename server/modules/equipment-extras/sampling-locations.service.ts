import { AppError, validationError, type PropertyError } from '../../../core/errors/errors.ts';
import type { z } from 'zod';
import {
  type TAssessment,
  type ZAssessRequest,
  type TSamplingLocationFields,
  type ZSamplingLocation,
} from '../../../core/schemas/equipment-extras.schemas.ts';
import type { Db, Queryable } from '../../db/db.ts';
import type { Scope } from '../../entities/entity-store.ts';
import { changedFields } from '../audit/audit-diff.ts';
import { writeAudit, type Actor } from '../audit/audit.service.ts';
import { equipmentOf, iso, liveEquipmentOf } from './equipment-access.ts';
import { assessmentOf } from './location-assessment.ts';

const DOMAIN = 'SamplingLocation';

const FIELDS = [
  'name',
  'description',
  'sampleType',
  'samplingTypeId',
  'swabArea',
  'material',
] as const;
const COLUMN: Record<(typeof FIELDS)[number], string> = {
  name: 'name',
  description: 'description',
  sampleType: 'sample_type',
  samplingTypeId: 'sampling_type_id',
  swabArea: 'swab_area',
  material: 'material',
};

export type SamplingLocation = z.infer<typeof ZSamplingLocation>;

function toLocation(row: Record<string, unknown>): SamplingLocation {
  return {
    id: Number(row.id),
    facilityId: Number(row.facility_id),
    equipmentId: Number(row.equipment_id),
    name: String(row.name),
    description: (row.description as string | null) ?? null,
    sampleType: row.sample_type as 'swab' | 'rinse',
    samplingTypeId: row.sampling_type_id === null ? null : Number(row.sampling_type_id),
    swabArea: (row.swab_area as SamplingLocation['swabArea']) ?? null,
    material: (row.material as SamplingLocation['material']) ?? null,
    assessment: (row.assessment as TAssessment | null) ?? null,
    riskScore: row.risk_score === null ? null : Number(row.risk_score),
    riskLevel: (row.risk_level as SamplingLocation['riskLevel']) ?? null,
    assessedAt: iso(row.assessed_at),
    version: Number(row.version),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
    archivedAt: iso(row.archived_at),
    archiveReason: (row.archive_reason as string | null) ?? null,
  };
}

function fieldsOf(location: SamplingLocation): Record<string, unknown> {
  return Object.fromEntries(FIELDS.map((f) => [f, location[f]]));
}

function encode(field: (typeof FIELDS)[number], value: unknown) {
  if (value === undefined || value === null) return null;
  return field === 'swabArea' ? JSON.stringify(value) : (value as string | number);
}

export async function listLocations(
  q: Queryable,
  facilityId: number,
  equipmentId: number,
  archived: boolean,
) {
  await equipmentOf(q, facilityId, equipmentId);
  const rows = await q.query<Record<string, unknown>>(
    `select * from sampling_locations where facility_id = $1 and equipment_id = $2
        and archived_at is ${archived ? 'not null' : 'null'} order by lower(name), id`,
    [facilityId, equipmentId],
  );
  return rows.map(toLocation);
}

export async function getLocation(
  q: Queryable,
  facilityId: number,
  equipmentId: number,
  locationId: number,
  lock = false,
): Promise<SamplingLocation> {
  const [row] = await q.query<Record<string, unknown>>(
    `select * from sampling_locations where facility_id = $1 and equipment_id = $2 and id = $3
      ${lock ? 'for update' : ''}`,
    [facilityId, equipmentId, locationId],
  );
  if (!row)
    throw new AppError(
      'NotFoundError',
      `Sampling location ${locationId} of equipment ${equipmentId} was not found`,
    );
  return toLocation(row);
}

/** A name once per item (archived ones included), and a sampling type of the same sample type. */
async function checkLocation(
  q: Queryable,
  facilityId: number,
  equipmentId: number,
  values: Partial<TSamplingLocationFields> & { sampleType: 'swab' | 'rinse' },
  exceptId: number | null,
  at: string,
): Promise<{ swabArea: unknown }> {
  if (values.name !== undefined) {
    const [other] = await q.query<{ archived: boolean }>(
      `select archived_at is not null as archived from sampling_locations
        where equipment_id = $1 and lower(name) = lower($2) and ($3::int is null or id <> $3)`,
      [equipmentId, values.name, exceptId],
    );
    if (other) {
      const errors = [
        {
          property: `${at}name`,
          constraints: {
            unique: `Sampling location '${values.name}' already exists on this equipment`,
          },
        },
      ];
      throw other.archived
        ? new AppError(
            'ArchivedEntryError',
            `Data Archived: sampling location '${values.name}' of this equipment is archived. Restore it from the archived list, or choose another name.`,
            { errors },
          )
        : new AppError('DuplicateEntryError', errors[0]!.constraints.unique, { errors });
    }
  }
  let swabArea: unknown = values.swabArea;
  if (values.samplingTypeId !== undefined && values.samplingTypeId !== null) {
    const [type] = await q.query<{ sample_type: string; swab_area: unknown }>(
      `select sample_type, swab_area from sampling_types
        where facility_id = $1 and id = $2 and archived_at is null`,
      [facilityId, values.samplingTypeId],
    );
    const problems: PropertyError[] = [];
    if (!type)
      problems.push({
        property: `${at}samplingTypeId`,
        constraints: {
          reference: `No sampling type with id ${values.samplingTypeId} in this facility`,
        },
      });
    else if (type.sample_type !== values.sampleType)
      problems.push({
        property: `${at}samplingTypeId`,
        constraints: {
          sampleType: `is a ${type.sample_type} type, the location is ${values.sampleType}`,
        },
      });
    if (problems.length > 0) throw validationError(problems);
    // A swab location takes its sampling type's swab area unless it gives its own.
    if (swabArea === undefined && values.sampleType === 'swab') swabArea = type!.swab_area;
  }
  return { swabArea };
}

export async function createLocations(
  db: Db,
  actor: Actor,
  scope: Scope,
  equipmentId: number,
  items: { fields: TSamplingLocationFields; at: string }[],
  reason: string | undefined,
): Promise<SamplingLocation[]> {
  return db.transaction(async (tx) => {
    await liveEquipmentOf(tx, scope.facilityId, equipmentId);
    const seen = new Map<string, string>();
    for (const { fields, at } of items) {
      const key = fields.name.toLowerCase();
      if (seen.has(key))
        throw new AppError('DuplicateEntryError', `'${fields.name}' is listed twice`, {
          errors: [
            { property: `${at}name`, constraints: { unique: `repeats ${seen.get(key)}name` } },
          ],
        });
      seen.set(key, at);
    }
    const created: SamplingLocation[] = [];
    for (const { fields, at } of items) {
      const { swabArea } = await checkLocation(tx, scope.facilityId, equipmentId, fields, null, at);
      const values = { ...fields, swabArea: swabArea ?? null };
      const [row] = await tx.query<Record<string, unknown>>(
        `insert into sampling_locations (facility_id, equipment_id, created_by, updated_by,
           ${FIELDS.map((f) => COLUMN[f]).join(', ')})
         values ($1, $2, $3, $3, ${FIELDS.map((_, i) => `$${i + 4}`).join(', ')}) returning *`,
        [scope.facilityId, equipmentId, actor.userId, ...FIELDS.map((f) => encode(f, values[f]))],
      );
      const location = toLocation(row!);
      await writeAudit(tx, actor, {
        planId: scope.planId,
        facilityId: scope.facilityId,
        domain: DOMAIN,
        action: 'Create',
        entityId: location.id,
        reason: reason ?? null,
        newValues: { equipmentId, ...fieldsOf(location) },
      });
      created.push(location);
    }
    return created;
  });
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
    const before = await getLocation(tx, scope.facilityId, equipmentId, locationId, true);
    if (before.archivedAt)
      throw new AppError(
        'ArchivedEntryError',
        'Data Archived: this sampling location is archived. Restore it before editing it.',
      );
    if (meta.version !== before.version) throw new AppError('VersionConflictError');
    const { oldValues, newValues } = changedFields(fieldsOf(before), edit);
    const next = { ...fieldsOf(before), ...newValues } as TSamplingLocationFields;
    await checkLocation(
      tx,
      scope.facilityId,
      equipmentId,
      {
        ...newValues,
        sampleType: next.sampleType,
        // The pairing of sample type and sampling type is checked when either changes.
        samplingTypeId:
          'samplingTypeId' in newValues || 'sampleType' in newValues ? next.samplingTypeId : null,
      },
      locationId,
      'data.',
    );
    const fields = FIELDS.filter((f) => f in newValues);
    const [row] = await tx.query<Record<string, unknown>>(
      `update sampling_locations set ${fields.map((f, i) => `${COLUMN[f]} = $${i + 4}`).join(', ')},
              version = version + 1, updated_at = now(), updated_by = $3
        where facility_id = $1 and id = $2 returning *`,
      [scope.facilityId, locationId, actor.userId, ...fields.map((f) => encode(f, newValues[f]))],
    );
    await writeAudit(tx, actor, {
      planId: scope.planId,
      facilityId: scope.facilityId,
      domain: DOMAIN,
      action: 'Update',
      entityId: locationId,
      reason: meta.reason,
      oldValues: { equipmentId, ...oldValues },
      newValues: { equipmentId, ...newValues },
    });
    return toLocation(row!);
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
    const before = await getLocation(tx, scope.facilityId, equipmentId, locationId, true);
    if (Boolean(before.archivedAt) === archived)
      throw new AppError(
        'NothingToChangeError',
        archived
          ? 'This sampling location is already archived.'
          : 'This sampling location is not archived.',
      );
    if (!archived) await liveEquipmentOf(tx, scope.facilityId, equipmentId);
    const [row] = await tx.query<Record<string, unknown>>(
      `update sampling_locations
          set archived_at = ${archived ? 'now()' : 'null'}, archived_by = ${archived ? '$3' : 'null'},
              archive_reason = ${archived ? '$4' : 'null'}, version = version + 1, updated_at = now(), updated_by = $3
        where facility_id = $1 and id = $2 returning *`,
      archived
        ? [scope.facilityId, locationId, actor.userId, reason]
        : [scope.facilityId, locationId, actor.userId],
    );
    await writeAudit(tx, actor, {
      planId: scope.planId,
      facilityId: scope.facilityId,
      domain: DOMAIN,
      action: archived ? 'Archive' : 'Unarchive',
      entityId: locationId,
      reason,
      oldValues: { equipmentId, archived: !archived },
      newValues: { equipmentId, archived },
    });
    return toLocation(row!);
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
    const before = await getLocation(tx, scope.facilityId, equipmentId, locationId, true);
    if (before.archivedAt)
      throw new AppError(
        'ArchivedEntryError',
        'Data Archived: this sampling location is archived. Restore it before assessing it.',
      );
    if (input.version !== undefined && input.version !== before.version)
      throw new AppError('VersionConflictError');
    const result = await assessmentOf(
      tx,
      scope.facilityId,
      input,
      () => before.material ?? (equipment.material as SamplingLocation['material']),
    );
    // The same assessment again is NothingToChangeError; jsonb keeps its own key order.
    const { oldValues, newValues } = changedFields(
      { assessment: before.assessment, riskScore: before.riskScore, riskLevel: before.riskLevel },
      {
        assessment: result.assessment,
        riskScore: result.riskScore,
        riskLevel: result.riskLevel,
      },
    );
    const [row] = await tx.query<Record<string, unknown>>(
      `update sampling_locations set assessment = $3, risk_score = $4, risk_level = $5,
              assessed_at = now(), assessed_by = $6, version = version + 1, updated_at = now(), updated_by = $6
        where facility_id = $1 and id = $2 returning *`,
      [
        scope.facilityId,
        locationId,
        JSON.stringify(result.assessment),
        result.riskScore,
        result.riskLevel,
        actor.userId,
      ],
    );
    await writeAudit(tx, actor, {
      planId: scope.planId,
      facilityId: scope.facilityId,
      domain: DOMAIN,
      action: 'Assess',
      entityId: locationId,
      reason: input.reason,
      oldValues: { equipmentId, ...oldValues },
      newValues: { equipmentId, ...newValues },
    });
    return toLocation(row!);
  });
}
