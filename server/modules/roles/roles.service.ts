import { validationError } from '#core/errors/errors.ts';
import {
  emptyPermissionMap,
  mergePermissionMaps,
  type PermissionMap,
} from '#core/permissions/permission-map.ts';
import type { TCreateRoleRequest, TRole, TUpdateRoleRequest } from '#core/schemas/roles.schemas.ts';
import { rolesDef as def } from '#core/entities/defs/roles.def.ts';
import { one, type Db, type Queryable } from '#server/db/db.ts';
import { onAuditValues, onBeforeArchive } from '#server/entities/archive-hooks.ts';
import {
  archiveEntity,
  createEntity,
  restoreEntity,
  updateEntity,
} from '#server/entities/entity-write.ts';
import type { Actor } from '#server/db/audit-write.ts';
import {
  archivedEntry,
  assertVersion,
  duplicateEntry,
  iso,
  isUniqueViolation,
  notFound,
} from '../users-admin/records.ts';
import { assertMayDefineRole, withRefusalsAudited } from '../users-admin/user-privileges.ts';

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

/** The role's audit rows list only the actions granted or taken away ('Resource.Action'). */
onAuditValues(def.key, ({ oldValues, newValues }) => {
  if (!('permissions' in newValues)) return { oldValues, newValues };
  const granted = permissionDiff(
    normalisePermissions(oldValues.permissions as PermissionMap),
    newValues.permissions as PermissionMap,
  );
  const taken = Object.entries(granted).map(([key, allowed]) => [key, !allowed]);
  return {
    oldValues: { ...oldValues, permissions: Object.fromEntries(taken) },
    newValues: { ...newValues, permissions: granted },
  };
});

/**
 * A role someone holds cannot be archived: their access would change without anyone deciding it
 * user by user. Take the role from them first.
 */
onBeforeArchive(def.key, 'held-by-users', async (q, _def, _scope, record) => {
  const { n } = await one<{ n: number }>(
    q,
    `select count(distinct user_id)::int as n from user_facility_roles where role_id = $1`,
    [record.id],
  );
  if (n > 0)
    throw validationError([
      {
        property: 'id',
        constraints: {
          inUse: `This role is held by ${n} user${n === 1 ? '' : 's'}; take it from them first`,
        },
      },
    ]);
});

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
        const role = await createEntity(tx, {
          actor: scope.actor,
          def,
          scope,
          values: { name: input.name, permissions },
        });
        return toRole(await findRole(tx, scope, role.id));
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
        const write = { actor: scope.actor, def, scope, id: roleId, reason: input.reason };
        if (input.unArchive) {
          await restoreEntity(tx, write);
          return toRole(await findRole(tx, scope, roleId));
        }
        if (row.archived_at !== null) throw archivedEntry('id');
        const before = normalisePermissions(row.permissions);
        const after = input.permissions ? normalisePermissions(input.permissions) : before;
        await assertMayDefineRole(tx, actOn(scope, roleId, 'Update'), { before, after });
        // Only what changes: a stored map is compared as every action of spec §6 lists it.
        const edit: Record<string, unknown> = {};
        if (input.name !== undefined && input.name !== row.name) edit.name = input.name;
        if (Object.keys(permissionDiff(before, after)).length > 0) edit.permissions = after;
        await updateEntity(tx, { ...write, edit, version: input.version });
        return toRole(await findRole(tx, scope, roleId));
      })
      .catch(mapUniqueViolation),
  );
}

/** Archives a role nobody holds (see the before-archive hook above). */
export async function archiveRole(
  db: Db,
  scope: FacilityScope,
  roleId: number,
  reason: string,
): Promise<TRole> {
  return db.transaction(async (tx) => {
    await findRole(tx, scope, roleId, true);
    await archiveEntity(tx, { actor: scope.actor, def, scope, id: roleId, reason });
    return toRole(await findRole(tx, scope, roleId));
  });
}
