import {
  emptyPermissionMap,
  fullPermissionMap,
  type PermissionMap,
} from '#core/permissions/permission-map.ts';
import type { Db } from '../db/db.ts';
import type { Actor } from '../db/audit-write.ts';
import { hashPassword } from '../util/secrets.ts';

let sequence = 0;

/** The author of audit rows a test writes directly, with no user or request behind them. */
export const testActor: Actor = {
  userId: null,
  userName: 'test',
  ip: null,
  userAgent: null,
  requestId: null,
};

export interface BuiltUser {
  id: number;
  username: string;
  email: string | null;
  password: string;
}

/** Writes a real user row, granted the given facilities with a role of the given permissions. */
export async function buildUser(
  db: Db,
  overrides: {
    email?: string | null;
    username?: string;
    firstName?: string;
    password?: string;
    mustChangePassword?: boolean;
    isBlocked?: boolean;
    facilityIds?: number[];
    roleName?: string;
    permissions?: PermissionMap;
    passwordChangedDaysAgo?: number;
  } = {},
): Promise<BuiltUser> {
  // Its own number: users built at once would otherwise share one, and so one role.
  const n = (sequence += 1);
  const username = overrides.username ?? `EMP${process.pid}${n}`;
  const email =
    overrides.email === undefined ? `user${n}.${process.pid}@example.com` : overrides.email;
  const password = overrides.password ?? 'Secret#123';
  const [plan] = await db.query<{ id: number }>('select id from plans order by id limit 1');
  const [user] = await db.query<{ id: number }>(
    `insert into users (plan_id, first_name, last_name, username, email, password_hash,
                        password_changed_at, must_change_password, is_blocked)
     values ($1, $9, $2, $3, $4, $5, now() - make_interval(days => $6), $7, $8) returning id`,
    [
      plan!.id,
      `User${n}`,
      username,
      email,
      await hashPassword(password),
      overrides.passwordChangedDaysAgo ?? 0,
      overrides.mustChangePassword ?? false,
      overrides.isBlocked ?? false,
      overrides.firstName ?? 'Test',
    ],
  );
  const facilityIds = overrides.facilityIds ?? (await allFacilityIds(db));
  for (const facilityId of facilityIds) {
    const roleName = overrides.roleName ?? `Role ${n}`;
    const [role] = await db.query<{ id: number }>(
      `insert into roles (facility_id, name, permissions) values ($1, $2, $3)
       on conflict (facility_id, name) do update set name = excluded.name returning id`,
      [facilityId, roleName, JSON.stringify(overrides.permissions ?? emptyPermissionMap())],
    );
    await db.query(
      'insert into user_facility_roles (user_id, facility_id, role_id) values ($1, $2, $3)',
      [user!.id, facilityId, role!.id],
    );
  }
  return { id: user!.id, username, email, password };
}

export async function allFacilityIds(db: Db): Promise<number[]> {
  const rows = await db.query<{ id: number }>('select id from facilities order by id');
  return rows.map((r) => r.id);
}

export { fullPermissionMap };

/** A permission map that allows only the given actions, e.g. `{ User: ['Get'] }`. */
export function permissionsWith(allowed: Record<string, string[]>): PermissionMap {
  const map = emptyPermissionMap();
  for (const [resource, actions] of Object.entries(allowed)) {
    for (const action of actions) {
      const target = map[resource];
      if (!target || !(action in target)) throw new Error(`No permission ${resource} ${action}`);
      target[action] = true;
    }
  }
  return map;
}
