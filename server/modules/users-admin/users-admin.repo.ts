import type { TAuthType, TIdName, TUser } from '#core/schemas/users.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { likePattern, pageWindow } from '#server/db/paging.ts';
import { iso } from './records.ts';

export interface GrantRow {
  roleId: number;
  roleName: string;
  facilityId: number;
  facilityName: string;
}

export interface UserAdminRow {
  id: number;
  plan_id: number;
  first_name: string;
  last_name: string;
  username: string;
  email: string | null;
  auth_type: TAuthType;
  department_id: number | null;
  department_name: string | null;
  is_registered: boolean;
  is_system_admin: boolean;
  has_secret_key: boolean;
  is_blocked: boolean;
  is_locked: boolean;
  version: number;
  created_at: Date | string;
  updated_at: Date | string;
  archived_at: Date | string | null;
  archive_reason: string | null;
  grants: GrantRow[];
}

/** The column `grants` (GrantRow[]) of the user `u`, by facility and role name. */
export const GRANT_ROWS = `coalesce((select json_agg(json_build_object('roleId', r.id, 'roleName', r.name,
                    'facilityId', f.id, 'facilityName', f.name) order by f.name, r.name)
              from user_facility_roles ufr join roles r on r.id = ufr.role_id and r.archived_at is null
              join facilities f on f.id = ufr.facility_id
             where ufr.user_id = u.id), '[]'::json) as grants`;

// An account of the directory or of SSO has no password here to set: it counts as registered.
const USER_COLUMNS = `u.id, u.plan_id, u.first_name, u.last_name, u.username, u.email,
  u.auth_type, u.department_id, d.name as department_name,
  (u.password_hash is not null or u.auth_type <> 'local') as is_registered, u.is_system_admin,
  exists (select 1 from one_time_tokens t
           where t.user_id = u.id and t.kind = 'secret' and t.used_at is null
             and t.expires_at > now()) as has_secret_key,
  u.is_blocked, coalesce(u.locked_until > now(), false) as is_locked, u.version,
  u.created_at, u.updated_at, u.archived_at, u.archive_reason,
  ${GRANT_ROWS}`;

const USER_FROM = 'users u left join departments d on d.id = u.department_id';

/** The facilities a user reaches and their roles in each, in a stable order for diffs. */
export function facilityRolesOf(grants: readonly GrantRow[]): TUser['facilityRoles'] {
  const byFacility = new Map<number, TUser['facilityRoles'][number]>();
  for (const grant of grants) {
    const entry = byFacility.get(grant.facilityId) ?? {
      facilityId: grant.facilityId,
      facilityName: grant.facilityName,
      roleIds: [],
    };
    entry.roleIds.push(grant.roleId);
    byFacility.set(grant.facilityId, entry);
  }
  return [...byFacility.values()]
    .map((entry) => ({ ...entry, roleIds: [...entry.roleIds].sort((a, b) => a - b) }))
    .sort((a, b) => a.facilityId - b.facilityId);
}

export function toUser(row: UserAdminRow): TUser {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    username: row.username,
    email: row.email,
    authType: row.auth_type,
    department:
      row.department_id === null || row.department_name === null
        ? null
        : { id: row.department_id, name: row.department_name },
    roles: row.grants.map((g) => ({ id: g.roleId, name: g.roleName, facilityId: g.facilityId })),
    facilityRoles: facilityRolesOf(row.grants),
    isRegistered: row.is_registered,
    isSystemAdmin: row.is_system_admin,
    hasSecretKey: row.has_secret_key,
    isBlocked: row.is_blocked,
    isLocked: row.is_locked,
    version: row.version,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    archivedAt: row.archived_at === null ? null : iso(row.archived_at),
    archiveReason: row.archive_reason,
  };
}

/**
 * One user of the plan, archived or not; `lock` holds the row for the rest of the transaction.
 * A service account is no user here: it is administered on its own routes (service-accounts).
 */
export async function findUser(
  q: Queryable,
  planId: number,
  userId: number,
  options: { lock?: boolean } = {},
): Promise<UserAdminRow | undefined> {
  if (options.lock) {
    await q.query(
      'select id from users where id = $1 and plan_id = $2 and owner_id is null for update',
      [userId, planId],
    );
  }
  const [row] = await q.query<UserAdminRow>(
    `select ${USER_COLUMNS} from ${USER_FROM}
      where u.id = $1 and u.plan_id = $2 and u.owner_id is null`,
    [userId, planId],
  );
  return row;
}

const SEARCH = `($2::text is null or u.first_name ilike $2 or u.last_name ilike $2
   or (u.first_name || ' ' || u.last_name) ilike $2 or u.username ilike $2 or u.email ilike $2
   or d.name ilike $2)`;

export async function listUsers(
  q: Queryable,
  planId: number,
  query: { pageNumber: number; pageLimit: number; search?: string | undefined; archived: boolean },
): Promise<{ rows: UserAdminRow[]; total: number }> {
  const { limit, offset } = pageWindow(query);
  // Service accounts are listed on their own screen (modules/service-accounts).
  const where = `u.plan_id = $1 and u.owner_id is null and (u.archived_at is not null) = $3 and ${SEARCH}`;
  const params = [planId, likePattern(query.search), query.archived];
  const rows = await q.query<UserAdminRow>(
    `select ${USER_COLUMNS} from ${USER_FROM} where ${where}
      order by lower(u.last_name), lower(u.first_name), u.id limit $4 offset $5`,
    [...params, limit, offset],
  );
  const [count] = await q.query<{ n: number }>(
    `select count(*)::int as n from ${USER_FROM} where ${where}`,
    params,
  );
  return { rows, total: count?.n ?? 0 };
}

/** The id-name media type: active users for pickers, by name. */
export async function userIdNames(
  q: Queryable,
  planId: number,
  search: string | undefined,
): Promise<TIdName[]> {
  return q.query<TIdName>(
    `select u.id, u.first_name || ' ' || u.last_name as name from ${USER_FROM}
      where u.plan_id = $1 and u.archived_at is null and u.owner_id is null and ${SEARCH}
      order by lower(u.first_name), lower(u.last_name), u.id`,
    [planId, likePattern(search)],
  );
}
