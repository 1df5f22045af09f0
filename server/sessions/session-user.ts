import type { Queryable } from '../db/db.ts';

export interface SessionUserRow {
  id: number;
  plan_id: number;
  first_name: string;
  last_name: string;
  username: string;
  email: string | null;
  department_name: string | null;
  role_names: string[];
  is_system_admin: boolean;
  auth_type: 'local' | 'ad' | 'sso';
}

export const SESSION_USER_COLUMNS = `u.id, u.plan_id, u.first_name, u.last_name, u.username, u.email,
  d.name as department_name, u.is_system_admin, u.auth_type,
  coalesce((select array_agg(distinct r.name order by r.name)
              from user_facility_roles ufr join roles r on r.id = ufr.role_id and r.archived_at is null
             where ufr.user_id = u.id), '{}') as role_names`;

export async function getSessionUser(q: Queryable, userId: number): Promise<SessionUserRow> {
  const [row] = await q.query<SessionUserRow>(
    `select ${SESSION_USER_COLUMNS}
       from users u left join departments d on d.id = u.department_id where u.id = $1`,
    [userId],
  );
  if (!row) throw new Error(`user ${userId} vanished`);
  return row;
}

export function toSessionUser(row: SessionUserRow) {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    username: row.username,
    email: row.email,
    planId: row.plan_id,
    roles: row.role_names.map((name) => ({ name })),
    department: row.department_name === null ? null : { name: row.department_name },
    isSystemAdmin: row.is_system_admin,
    authType: row.auth_type,
  };
}
