import { AppError } from '#core/errors/errors.ts';
import { facilitiesDef, facilityGroupsDef } from '#core/entities/defs/facilities.def.ts';
import { fullPermissionMap } from '#core/permissions/permission-map.ts';
import type { TListQuery } from '#core/schemas/common.schemas.ts';
import type {
  TFacilityGroupRecord,
  TFacilityRecord,
  TLicenseChangeRequest,
  TLicenseState,
} from '#core/schemas/facilities.schemas.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { createEntity, updateEntity } from '#server/entities/entity-write.ts';
import { updateVersioned } from '#server/entities/versioned-update.ts';
import { getEntity, listEntities } from '#server/entities/entity-store.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import { addRoleTemplates } from '#server/db/role-templates.ts';

export interface FacilityAdminScope {
  actor: Actor;
  planId: number;
  userId: number;
  isSystemAdmin: boolean;
}

interface FacilityExtras {
  facilityGroupName: string;
  licenseState: TLicenseState;
  licenseWorkflow: string;
}

async function withExtras(
  q: Queryable,
  records: Array<Record<string, unknown> & { id: number }>,
): Promise<TFacilityRecord[]> {
  if (records.length === 0) return [];
  const rows = await q.query<FacilityExtras & { id: number }>(
    `select f.id, g.name as "facilityGroupName", f.license_state as "licenseState",
            f.license_workflow as "licenseWorkflow"
       from facilities f join facility_groups g on g.id = f.facility_group_id
      where f.id = any($1::int[])`,
    [records.map((r) => r.id)],
  );
  const extras = new Map(rows.map((row) => [row.id, row]));
  return records.map((record) => {
    const { facilityGroupName, licenseState, licenseWorkflow } = extras.get(record.id)!;
    return { ...record, facilityGroupName, licenseState, licenseWorkflow } as TFacilityRecord;
  });
}

export async function getFacility(
  q: Queryable,
  planId: number,
  id: number,
): Promise<TFacilityRecord> {
  const [record] = await withExtras(q, [await getEntity(q, facilitiesDef, planId, id)]);
  return record!;
}

/** A system administrator sees every facility of the plan; anyone else those granted to them. */
export async function listFacilities(db: Db, scope: FacilityAdminScope, query: TListQuery) {
  const page = await listEntities(db, facilitiesDef, scope.planId, query, false, {
    filter: scope.isSystemAdmin
      ? undefined
      : (param) =>
          `id in (select facility_id from user_facility_roles where user_id = ${param(scope.userId)})`,
  });
  return { ...page, data: await withExtras(db, page.data) };
}

/**
 * A new facility, granted to its creator with an Administrator role of every permission (as the
 * first-start seed grants the first ones): without it nobody could open the facility to set it up.
 * It also gets the role templates (validation engineer, QA approver, …) as editable roles.
 */
export async function createFacility(
  tx: Queryable,
  scope: FacilityAdminScope,
  values: Record<string, unknown>,
): Promise<TFacilityRecord> {
  const { actor, planId } = scope;
  const made = await createEntity(tx, { actor, def: facilitiesDef, scope: { planId }, values });
  const [role] = await tx.query<{ id: number }>(
    `insert into roles (facility_id, name, permissions, created_by, updated_by)
     values ($1, 'Administrator', $2, $3, $3) returning id`,
    [made.id, JSON.stringify(fullPermissionMap()), scope.userId],
  );
  await tx.query(
    'insert into user_facility_roles (user_id, facility_id, role_id) values ($1, $2, $3)',
    [scope.userId, made.id, role!.id],
  );
  await writeAudit(tx, actor, {
    planId,
    facilityId: made.id,
    domain: 'UserRole',
    action: 'Create',
    entityId: role!.id,
    newValues: { name: 'Administrator', grantedTo: scope.userId, facility: made.id },
  });
  await addRoleTemplates(tx, actor, { planId, facilityId: made.id });
  return getFacility(tx, planId, made.id);
}

export async function updateFacility(
  tx: Queryable,
  scope: FacilityAdminScope,
  id: number,
  body: Record<string, unknown> & { reason: string; version?: number | undefined },
): Promise<TFacilityRecord> {
  const { reason, version, ...edit } = body;
  const { actor, planId } = scope;
  await updateEntity(tx, {
    actor,
    def: facilitiesDef,
    scope: { planId },
    id,
    edit,
    reason,
    version,
  });
  return getFacility(tx, planId, id);
}

/** The licence state and workflow, set by a system administrator with a reason (audited). */
export async function changeLicense(
  tx: Queryable,
  scope: FacilityAdminScope,
  id: number,
  change: TLicenseChangeRequest,
): Promise<TFacilityRecord> {
  const { actor, planId } = scope;
  const [before] = await tx.query<{ state: TLicenseState; workflow: string; version: number }>(
    `select license_state as state, license_workflow as workflow, version from facilities
      where plan_id = $1 and id = $2 for update`,
    [planId, id],
  );
  if (!before) throw new AppError('NotFoundError', `Facility ${id} was not found`);
  if (before.version !== change.version) throw new AppError('VersionConflictError');
  if (before.state === change.state && before.workflow === change.workflow)
    throw new AppError('NothingToChangeError');
  await updateVersioned(
    tx,
    {
      table: facilitiesDef.table,
      ownerColumn: 'plan_id',
      ownerId: planId,
      id,
      version: before.version,
    },
    actor.userId,
    { license_state: change.state, license_workflow: change.workflow },
  );
  await writeAudit(tx, actor, {
    planId,
    facilityId: id,
    domain: 'Facility',
    action: 'LicenseChange',
    entityId: id,
    reason: change.reason,
    oldValues: { state: before.state, workflow: before.workflow },
    newValues: { state: change.state, workflow: change.workflow },
  });
  return getFacility(tx, planId, id);
}

// Records of a declaration are typed by its schema (core/schemas/facilities.schemas.ts).
const asGroup = (record: unknown) => record as TFacilityGroupRecord;

export async function listFacilityGroups(db: Db, planId: number, query: TListQuery) {
  const page = await listEntities(db, facilityGroupsDef, planId, query, false);
  return { ...page, data: page.data.map(asGroup) };
}

export async function createFacilityGroup(tx: Queryable, scope: FacilityAdminScope, name: string) {
  const { actor, planId } = scope;
  return asGroup(
    await createEntity(tx, { actor, def: facilityGroupsDef, scope: { planId }, values: { name } }),
  );
}

export async function updateFacilityGroup(
  tx: Queryable,
  scope: FacilityAdminScope,
  id: number,
  body: { name?: string | undefined; reason: string; version?: number | undefined },
) {
  const { actor, planId } = scope;
  const { reason, version, ...edit } = body;
  return asGroup(
    await updateEntity(tx, {
      actor,
      def: facilityGroupsDef,
      scope: { planId },
      id,
      edit,
      reason,
      version,
    }),
  );
}
