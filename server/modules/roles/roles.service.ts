import { AppError, validationError } from '../../../core/errors/errors.ts';
import {
  emptyPermissionMap,
  mergePermissionMaps,
  type PermissionMap,
} from '../../../core/permissions/permission-map.ts';
import type {
  TCreateRoleRequest,
  TRole,
  TUpdateRoleRequest,
} from '../../../core/schemas/roles.schemas.ts';
import type { Db, Queryable } from '../../db/db.ts';
import { writeAudit, type Actor } from '../audit/audit.service.ts';
import {
  archivedEntry,
  assertVersion,
  duplicateEntry,
  iso,
  isUniqueViolation,
  notFound,
} from '../users-admin/records.ts';
import { assertMayDefineRole, withRefusalsAudited } from '../users-admin/user-privileges.ts';

const DOMAIN = 'UserRole';

export interface FacilityScope {
  actor: Actor;
  planId: number;
  facilityId: number;
}

interface RoleRow {
  id: number;
  facility_id: number;
  name: string;
  permissions: PermissionMap;
  user_count: number;
  version: number;
  archived_at: Date | string | null;
  archive_reason: string | null;
}

const ROLE_SELECT = `select r.id, r.facility_id, r.name, r.permissions, r.version, r.archived_at,
    r.archive_reason,
    (select count(distinct ufr.user_id)::int from user_facility_roles ufr
      where ufr.role_id = r.id) as user_count
  from roles r join facilities f on f.id = r.facility_id`;

/** Stored maps always list every resource and action of spec §6, false unless granted. */
export function normalisePermissions(map: PermissionMap): PermissionMap {
  return mergePermissionMaps([map]);
}

function toRole(row: RoleRow): TRole {
  return {
    id: row.id,
    facilityId: row.facility_id,
    name: row.name,
    permissions: normalisePermissions(row.permissions),
    userCount: row.user_count,
    version: row.version,
    archivedAt: row.archived_at === null ? null : iso(row.archived_at),
    archiveReason: row.archive_reason,
  };
}

async function findRole(
  q: Queryable,
  scope: FacilityScope,
  roleId: number,
  lock = false,
): Promise<RoleRow> {
  if (lock) await q.query('select id from roles where id = $1 for update', [roleId]);
  const [row] = await q.query<RoleRow>(
    `${ROLE_SELECT} where r.id = $1 and r.facility_id = $2 and f.plan_id = $3`,
    [roleId, scope.facilityId, scope.planId],
  );
  if (!row) throw notFound('The role');
  return row;
}

async function assertNameFree(
  q: Queryable,
  facilityId: number,
  name: string,
  exceptId: number | null,
): Promise<void> {
  const [clash] = await q.query<{ archived: boolean }>(
    `select archived_at is not null as archived from roles
      where facility_id = $1 and lower(name) = lower($2) and ($3::int is null or id <> $3)`,
    [facilityId, name, exceptId],
  );
  if (!clash) return;
  if (clash.archived) throw archivedEntry('name');
  throw duplicateEntry('name', 'A role with this name already exists in this facility');
}

function mapUniqueViolation(error: unknown): never {
  if (isUniqueViolation(error)) {
    throw duplicateEntry('name', 'A role with this name already exists in this facility');
  }
  throw error;
}

export async function listRoles(db: Db, scope: FacilityScope, archived: boolean): Promise<TRole[]> {
  const rows = await db.query<RoleRow>(
    `${ROLE_SELECT} where r.facility_id = $1 and f.plan_id = $2 and (r.archived_at is not null) = $3
      order by lower(r.name), r.id`,
    [scope.facilityId, scope.planId, archived],
  );
  return rows.map(toRole);
}

export async function createRole(
  db: Db,
  scope: FacilityScope,
  input: TCreateRoleRequest,
): Promise<TRole> {
  const permissions = normalisePermissions(input.permissions);
  return withRefusalsAudited(db, scope.actor, () =>
    db
      .transaction(async (tx) => {
        await assertMayDefineRole(tx, actOn(scope, null, 'Create'), {
          before: emptyPermissionMap(),
          after: permissions,
        });
        await assertNameFree(tx, scope.facilityId, input.name, null);
        const [row] = await tx.query<{ id: number }>(
          `insert into roles (facility_id, name, permissions, created_by, updated_by)
         values ($1, $2, $3, $4, $4) returning id`,
          [scope.facilityId, input.name, JSON.stringify(permissions), scope.actor.userId],
        );
        await writeAudit(tx, scope.actor, {
          planId: scope.planId,
          facilityId: scope.facilityId,
          domain: DOMAIN,
          action: 'Create',
          entityId: row!.id,
          newValues: { name: input.name, permissions },
        });
        return toRole(await findRole(tx, scope, row!.id));
      })
      .catch(mapUniqueViolation),
  );
}

function actOn(scope: FacilityScope, roleId: number | null, attempted: string) {
  return {
    planId: scope.planId,
    actorId: scope.actor.userId!,
    facilityId: scope.facilityId,
    roleId,
    attempted,
  };
}

/** Only the granted actions that changed, as 'Resource.Action', so the audit row stays readable. */
function permissionDiff(before: PermissionMap, after: PermissionMap): Record<string, boolean> {
  const changes: Record<string, boolean> = {};
  for (const [resource, actions] of Object.entries(after)) {
    for (const [action, allowed] of Object.entries(actions)) {
      if ((before[resource]?.[action] ?? false) !== allowed)
        changes[`${resource}.${action}`] = allowed;
    }
  }
  return changes;
}

export async function updateRole(
  db: Db,
  scope: FacilityScope,
  roleId: number,
  input: TUpdateRoleRequest,
): Promise<TRole> {
  return withRefusalsAudited(db, scope.actor, () =>
    db
      .transaction(async (tx) => {
        const row = await findRole(tx, scope, roleId, true);
        assertVersion(row.version, input.version);
        if (input.unArchive) {
          if (row.archived_at === null) throw new AppError('NothingToChangeError');
          await tx.query(
            `update roles set archived_at = null, archived_by = null, archive_reason = null,
                  version = version + 1, updated_at = now(), updated_by = $2 where id = $1`,
            [roleId, scope.actor.userId],
          );
          await writeAudit(tx, scope.actor, {
            planId: scope.planId,
            facilityId: scope.facilityId,
            domain: DOMAIN,
            action: 'Unarchive',
            entityId: roleId,
            reason: input.reason,
            oldValues: { archived: true },
            newValues: { archived: false },
          });
          return toRole(await findRole(tx, scope, roleId));
        }
        if (row.archived_at !== null) throw archivedEntry('id');
        const before = normalisePermissions(row.permissions);
        const after = input.permissions ? normalisePermissions(input.permissions) : before;
        const granted = permissionDiff(before, after);
        await assertMayDefineRole(tx, actOn(scope, roleId, 'Update'), { before, after });
        const oldValues: Record<string, unknown> = {};
        const newValues: Record<string, unknown> = {};
        if (input.name !== undefined && input.name !== row.name) {
          oldValues.name = row.name;
          newValues.name = input.name;
        }
        if (Object.keys(granted).length > 0) {
          oldValues.permissions = Object.fromEntries(
            Object.entries(granted).map(([key, allowed]) => [key, !allowed]),
          );
          newValues.permissions = granted;
        }
        if (Object.keys(newValues).length === 0) throw new AppError('NothingToChangeError');
        if (input.name !== undefined && 'name' in newValues) {
          await assertNameFree(tx, scope.facilityId, input.name, roleId);
        }
        const updated = await tx.query(
          `update roles set name = $3, permissions = $4, version = version + 1, updated_at = now(),
                updated_by = $5
          where id = $1 and version = $2 returning id`,
          [roleId, row.version, input.name ?? row.name, JSON.stringify(after), scope.actor.userId],
        );
        if (updated.length === 0) throw new AppError('VersionConflictError');
        await writeAudit(tx, scope.actor, {
          planId: scope.planId,
          facilityId: scope.facilityId,
          domain: DOMAIN,
          action: 'Update',
          entityId: roleId,
          reason: input.reason,
          oldValues,
          newValues,
        });
        return toRole(await findRole(tx, scope, roleId));
      })
      .catch(mapUniqueViolation),
  );
}

/**
 * A role someone holds cannot be archived: their access would change without anyone deciding it
 * user by user. Take the role from them first.
 */
export async function archiveRole(
  db: Db,
  scope: FacilityScope,
  roleId: number,
  reason: string,
): Promise<TRole> {
  return db.transaction(async (tx) => {
    const row = await findRole(tx, scope, roleId, true);
    if (row.archived_at !== null) throw new AppError('NothingToChangeError');
    if (row.user_count > 0) {
      throw validationError([
        {
          property: 'id',
          constraints: {
            inUse: `This role is held by ${row.user_count} user${row.user_count === 1 ? '' : 's'}; take it from them first`,
          },
        },
      ]);
    }
    await tx.query(
      `update roles set archived_at = now(), archived_by = $2, archive_reason = $3,
              version = version + 1, updated_at = now(), updated_by = $2 where id = $1`,
      [roleId, scope.actor.userId, reason],
    );
    await writeAudit(tx, scope.actor, {
      planId: scope.planId,
      facilityId: scope.facilityId,
      domain: DOMAIN,
      action: 'Archive',
      entityId: roleId,
      reason,
      oldValues: { archived: false },
      newValues: { archived: true },
    });
    return toRole(await findRole(tx, scope, roleId));
  });
}
