import { AppError } from '#core/errors/errors.ts';
import type { Queryable } from '#server/db/db.ts';

export interface UserRow {
  id: number;
  plan_id: number;
  first_name: string;
  last_name: string;
  username: string;
  email: string | null;
  password_hash: string | null;
  must_change_password: boolean;
  is_blocked: boolean;
  is_locked: boolean;
  password_expired: boolean;
  failed_attempts: number;
  auth_type: 'local' | 'ad' | 'sso';
}

/** Finds an active user by e-mail or employee ID, case-insensitively. */
export async function findUserForLogin(
  q: Queryable,
  identifier: string,
): Promise<UserRow | undefined> {
  const [row] = await q.query<UserRow>(
    `select u.id, u.plan_id, u.first_name, u.last_name, u.username, u.email, u.password_hash,
            u.must_change_password, u.is_blocked, u.failed_attempts, u.auth_type,
            coalesce(u.locked_until > now(), false) as is_locked,
            coalesce((ps.password_policy ->> 'passwordExpiryDays')::int, 90) > 0
              and u.password_changed_at is not null
              and u.password_changed_at + make_interval(
                    days => coalesce((ps.password_policy ->> 'passwordExpiryDays')::int, 90)) < now()
              as password_expired
       from users u left join plan_settings ps on ps.plan_id = u.plan_id
      where (lower(u.username) = lower($1) or lower(u.email) = lower($1)) and u.archived_at is null
        -- A service account never signs in: it calls with an API token (issue 33).
        and u.owner_id is null
      order by (lower(u.username) = lower($1)) desc
      limit 1`,
    [identifier],
  );
  return row;
}

/** Only a local account has a password here to reset or change; the others keep it elsewhere. */
export function assertLocalPassword(user: Pick<UserRow, 'auth_type'>): void {
  if (user.auth_type === 'local') return;
  throw new AppError(
    'InvalidEmailOrPasswordError',
    user.auth_type === 'ad'
      ? 'This account signs in with its Active Directory password: change it in the directory.'
      : 'This account signs in with single sign-on: its password is kept by the provider.',
  );
}
