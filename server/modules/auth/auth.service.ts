import { AppError, validationError } from '../../../core/errors/errors.ts';
import type { Db, Queryable } from '../../db/db.ts';
import { writeAudit, type Actor } from '../audit/audit.service.ts';
import {
  checkOneTimeToken,
  issueOneTimeToken,
  resetPath,
  spendOneTimeToken,
} from './one-time-tokens.ts';
import type { PasswordPolicy } from '../../../core/password/password-policy.ts';
import { loadPasswordPolicy } from './policy.ts';
import type { KeyConfig } from '../active-directory/active-directory.settings.ts';
import { checkCountedPassword } from './password-check.ts';
import { hashToken, randomToken, verifyPassword } from './secrets.ts';
import { setPassword } from './set-password.ts';
import {
  mergePermissionMaps,
  type PermissionMap,
} from '../../../core/permissions/permission-map.ts';
import {
  assertLocalPassword,
  findUserForLogin,
  getSessionUser,
  SESSION_USER_COLUMNS,
  toSessionUser,
  type SessionUserRow,
  type UserRow,
} from './users.repo.ts';

/** Audit rows of refused attempts must survive the refusal, so they commit on their own. */
export async function auditRefusal(
  db: Db,
  actor: Actor,
  planId: number | null,
  action: string,
  values: Record<string, unknown>,
  entityId?: number,
): Promise<void> {
  await db.transaction((tx) =>
    writeAudit(tx, actor, {
      planId,
      domain: 'Authentication',
      action,
      entityId: entityId ?? null,
      newValues: values,
    }),
  );
}

async function licenseInfo(q: Queryable, userId: number) {
  return q.query<{
    facilityId: number;
    state: 'intimate' | 'grace' | 'grace-exceeded' | 'genuine';
    workflow: string;
  }>(
    `select distinct f.id as "facilityId", f.license_state as state, f.license_workflow as workflow
       from facilities f join user_facility_roles ufr on ufr.facility_id = f.id
      where ufr.user_id = $1 and f.license_state <> 'genuine' and f.license_workflow <> 'none'
      order by f.id`,
    [userId],
  );
}

const LOCKED_MESSAGE =
  'Your account is locked after too many failed login attempts. Try again later or contact your administrator.';

/**
 * Counts this attempt before the password is verified, in one atomic statement: parallel guesses
 * each draw their own number, and those past the limit are refused without being verified, so
 * no burst of guesses gets more than the limit checked. An ended lock starts the count over.
 * Returns the attempt's number, or null while the account is locked.
 */
export async function countAttempt(db: Db, userId: number): Promise<number | null> {
  const [row] = await db.query<{ failed_attempts: number }>(
    `update users
        set failed_attempts = case when locked_until <= now() then 0 else failed_attempts end + 1,
            locked_until = case when locked_until <= now() then null else locked_until end
      where id = $1 and not coalesce(locked_until > now(), false)
      returning failed_attempts`,
    [userId],
  );
  return row?.failed_attempts ?? null;
}

/** A right password ends the count, unless a parallel wrong guess has locked the account. */
export async function clearAttempts(tx: Queryable, userId: number): Promise<void> {
  const cleared = await tx.query(
    `update users set failed_attempts = 0, locked_until = null
      where id = $1 and (locked_until is null or locked_until <= now()) returning id`,
    [userId],
  );
  if (cleared.length === 0) throw new AppError('LoginAttemptsExceeded', LOCKED_MESSAGE);
}

/**
 * Records a wrong password (a sign-in's, or a signature's: `failed` names which) as attempt
 * number `attempt`, locking the account at the policy's limit. Returns whether it locked.
 */
export async function recordWrongPassword(
  db: Db,
  actor: Actor,
  user: Pick<UserRow, 'id' | 'plan_id'>,
  failed: { action: string; values: Record<string, unknown> },
  attempt: number,
  policy: PasswordPolicy,
): Promise<boolean> {
  const locked = attempt >= policy.maxLoginAttempts;
  await db.transaction(async (tx) => {
    if (locked) {
      await tx.query(
        'update users set locked_until = now() + make_interval(mins => $2) where id = $1',
        [user.id, policy.lockoutMinutes],
      );
    }
    await writeAudit(tx, actor, {
      planId: user.plan_id,
      domain: 'Authentication',
      action: failed.action,
      entityId: user.id,
      newValues: { ...failed.values, failedAttempts: attempt },
    });
    if (locked) {
      await writeAudit(tx, actor, {
        planId: user.plan_id,
        domain: 'Authentication',
        action: 'Lock',
        entityId: user.id,
        newValues: { lockedForMinutes: policy.lockoutMinutes, failedAttempts: attempt },
      });
    }
  });
  return locked;
}

async function recordFailedPassword(
  db: Db,
  actor: Actor,
  user: UserRow,
  identifier: string,
  attempt: number,
  policy: PasswordPolicy,
): Promise<never> {
  const failed = { action: 'LoginFailed', values: { username: identifier } };
  if (await recordWrongPassword(db, actor, user, failed, attempt, policy)) {
    throw new AppError(
      'LoginAttemptsExceeded',
      `Your account has been locked after ${policy.maxLoginAttempts} failed login attempts. Try again in ${policy.lockoutMinutes} minutes or contact your administrator.`,
    );
  }
  const left = policy.maxLoginAttempts - attempt;
  throw new AppError(
    'InvalidEmailOrPasswordError',
    `Invalid Email/Employee ID or password. ${left} attempt${left === 1 ? '' : 's'} left before your account is locked.`,
  );
}

export async function login(
  db: Db,
  config: KeyConfig,
  actor: Actor,
  identifier: string,
  password: string | undefined,
) {
  const user = await findUserForLogin(db, identifier);
  if (!user) {
    await verifyPassword(null, password ?? '');
    await auditRefusal(db, actor, null, 'LoginFailed', {
      username: identifier,
      reason: 'unknown user',
    });
    throw new AppError('RequestingUserNotfound');
  }
  const who = { ...actor, userId: user.id, userName: `${user.first_name} ${user.last_name}` };
  if (user.is_blocked) {
    await auditRefusal(db, who, user.plan_id, 'LoginRefused', { reason: 'blocked' }, user.id);
    throw new AppError('UserBlockedError');
  }
  const refuseLocked = async (reason: string): Promise<never> => {
    await auditRefusal(db, who, user.plan_id, 'LoginRefused', { reason }, user.id);
    throw new AppError('LoginAttemptsExceeded', LOCKED_MESSAGE);
  };
  if (user.is_locked) return refuseLocked('locked');
  if (user.auth_type === 'sso') {
    // Their identity is the provider's to prove: a password here (even an old one) is refused.
    await verifyPassword(null, password ?? '');
    await auditRefusal(db, who, user.plan_id, 'LoginRefused', { reason: 'sso user' }, user.id);
    throw new AppError('InvalidEmailOrPasswordError', 'This account signs in with single sign-on.');
  }
  if (password === undefined || password === '') {
    throw validationError([
      { property: 'password', constraints: { required: 'Please input your Password!' } },
    ]);
  }
  const policy = await loadPasswordPolicy(db, user.plan_id);
  const attempt = await countAttempt(db, user.id);
  if (attempt === null) return refuseLocked('locked');
  if (attempt > policy.maxLoginAttempts) return refuseLocked('attempt limit reached');
  const right = await checkCountedPassword(db, config, user, password);
  if (typeof right === 'object') {
    await auditRefusal(db, who, user.plan_id, 'LoginRefused', { reason: right.unchecked }, user.id);
    throw new AppError('InvalidEmailOrPasswordError', right.unchecked);
  }
  if (!right) return recordFailedPassword(db, who, user, identifier, attempt, policy);

  // A directory account's password is the directory's: it is neither set nor expired here.
  if (user.auth_type === 'local' && (user.must_change_password || user.password_expired)) {
    const reason = user.must_change_password ? 'first-login' : 'expired';
    const url = await db.transaction(async (tx) => {
      await clearAttempts(tx, user.id);
      const token = await issueOneTimeToken(tx, user.id, 'reset');
      await writeAudit(tx, who, {
        planId: user.plan_id,
        domain: 'Authentication',
        action: 'PasswordChangeRequired',
        entityId: user.id,
        newValues: { reason },
      });
      return resetPath(user.id, token, reason);
    });
    throw new AppError(
      reason === 'first-login' ? 'ChangePasswordOnFirstLogin' : 'ChangePasswordOnPasswordExpiry',
      url,
    );
  }

  return openSession(
    db,
    who,
    user.id,
    user.plan_id,
    'Login',
    user.auth_type === 'ad' ? { authType: 'ad' } : {},
  );
}

/**
 * Starts a session for a user whose identity is proven (by password or by the SSO provider):
 * ends their other sessions (their next call gets 419), and writes the audit row `action`.
 */
export async function openSession(
  db: Db,
  who: Actor,
  userId: number,
  planId: number,
  action: string,
  values: Record<string, unknown>,
) {
  const token = randomToken();
  const sessionUser = await db.transaction(async (tx) => {
    await clearAttempts(tx, userId);
    const ended = await tx.query(
      `update sessions set ended_at = now(), end_reason = 'superseded'
        where user_id = $1 and ended_at is null returning id`,
      [userId],
    );
    await tx.query(
      `insert into sessions (user_id, token_hash, ip, user_agent) values ($1, $2, $3, $4)`,
      [userId, hashToken(token), who.ip, who.userAgent],
    );
    await writeAudit(tx, who, {
      planId,
      domain: 'Authentication',
      action,
      entityId: userId,
      newValues: { ...values, endedOtherSessions: ended.length },
    });
    return getSessionUser(tx, userId);
  });
  return { token, user: toSessionUser(sessionUser), licenseInfo: await licenseInfo(db, userId) };
}

/** A facility the user holds roles in: its plan, and the union of those roles' permissions. */
export interface FacilityGrant {
  planId: number;
  permissions: PermissionMap;
}

export interface ResolvedSession {
  sessionId: number;
  user: SessionUserRow;
  /** By facility id: read with the session, so a permission check costs no query. */
  grants: ReadonlyMap<number, FacilityGrant>;
}

/** A session ends after `idleMinutes` without a call, and `maxHours` after sign-in whatever the activity. */
export interface SessionLimits {
  idleMinutes: number;
  maxHours: number;
}

interface SessionLookupRow extends SessionUserRow {
  session_id: number;
  end_reason: string | null;
  ended: boolean;
  idle_seconds: number;
  age_seconds: number;
  usable: boolean;
  access_epoch: string;
  grants: { facilityId: number; planId: number; permissions: PermissionMap }[];
}

/** A resolved session and what a cache of it needs (server/http/access-cache.ts). */
export interface SessionLookup {
  session: ResolvedSession;
  /** The access_epoch the session was read at, in the same snapshot. */
  epoch: number;
  /** Seconds since the last call that kept the session alive, and since sign-in. */
  idleSeconds: number;
  ageSeconds: number;
}

function grantsOf(rows: SessionLookupRow['grants']): Map<number, FacilityGrant> {
  const byFacility = new Map<number, { planId: number; maps: PermissionMap[] }>();
  for (const row of rows) {
    const entry = byFacility.get(row.facilityId) ?? { planId: row.planId, maps: [] };
    entry.maps.push(row.permissions);
    byFacility.set(row.facilityId, entry);
  }
  return new Map(
    [...byFacility].map(([id, { planId, maps }]) => [
      id,
      { planId, permissions: mergePermissionMaps(maps) },
    ]),
  );
}

/** Whether a session has passed its idle timeout or its maximum age. */
export function isPastLimits(
  at: { idleSeconds: number; ageSeconds: number },
  limits: SessionLimits,
): boolean {
  return at.idleSeconds > limits.idleMinutes * 60 || at.ageSeconds > limits.maxHours * 3600;
}

/** Writing on every request would cost a write per read; a minute's precision is enough for idling. */
export const TOUCH_AFTER_SECONDS = 30;

/**
 * The user behind a session token with their grants, or the catalogue's 401/419, in one query.
 * Touches the session when due.
 */
export async function lookupSession(
  db: Db,
  token: string | undefined,
  limits: SessionLimits,
  options: { isBackground?: boolean } = {},
): Promise<SessionLookup> {
  if (!token) throw new AppError('SessionExpired');
  const [row] = await db.query<SessionLookupRow>(
    `select s.id as session_id, s.end_reason, s.ended_at is not null as ended,
            extract(epoch from (now() - s.last_seen_at))::float8 as idle_seconds,
            extract(epoch from (now() - s.created_at))::float8 as age_seconds,
            (not u.is_blocked and u.archived_at is null) as usable,
            (select epoch from access_epoch)::text as access_epoch,
            coalesce((select json_agg(json_build_object(
                        'facilityId', ufr.facility_id, 'planId', f.plan_id, 'permissions', r.permissions))
                        from user_facility_roles ufr
                        join roles r on r.id = ufr.role_id and r.archived_at is null
                        join facilities f on f.id = ufr.facility_id
                       where ufr.user_id = u.id), '[]') as grants,
            ${SESSION_USER_COLUMNS}
       from sessions s join users u on u.id = s.user_id
       left join departments d on d.id = u.department_id
      where s.token_hash = $1`,
    [hashToken(token)],
  );
  if (!row) throw new AppError('SessionExpired');
  if (row.ended) {
    throw new AppError(row.end_reason === 'superseded' ? 'SimultaneousSession' : 'SessionExpired');
  }
  if (!row.usable) throw new AppError('SessionExpired');
  const at = { idleSeconds: row.idle_seconds, ageSeconds: row.age_seconds };
  if (isPastLimits(at, limits)) {
    await db.query(
      `update sessions set ended_at = now(), end_reason = 'expired' where id = $1 and ended_at is null`,
      [row.session_id],
    );
    throw new AppError('SessionExpired');
  }
  // A background refresh (a count polled in the menu) is no sign of the user: it must not keep an
  // unattended session open forever.
  if (row.idle_seconds > TOUCH_AFTER_SECONDS && !options.isBackground) {
    await touchSession(db, row.session_id);
    at.idleSeconds = 0;
  }
  const { grants, access_epoch, ...user } = row;
  return {
    session: { sessionId: row.session_id, user, grants: grantsOf(grants) },
    epoch: Number(access_epoch),
    ...at,
  };
}

/** The user behind a session token, or the catalogue's 401/419. Touches the session when due. */
export async function resolveSession(
  db: Db,
  token: string | undefined,
  limits: SessionLimits,
  options: { isBackground?: boolean } = {},
): Promise<ResolvedSession> {
  return (await lookupSession(db, token, limits, options)).session;
}

/** "Stay signed in": the idle clock of this session starts again now. */
export async function touchSession(db: Db, sessionId: number): Promise<void> {
  await db.query('update sessions set last_seen_at = now() where id = $1', [sessionId]);
}

export async function logout(db: Db, actor: Actor, token: string | undefined): Promise<void> {
  if (!token) return;
  await db.transaction(async (tx) => {
    const [ended] = await tx.query<{ user_id: number; plan_id: number; name: string }>(
      `update sessions s set ended_at = now(), end_reason = 'logout'
         from users u
        where s.token_hash = $1 and s.ended_at is null and u.id = s.user_id
        returning s.user_id, u.plan_id, u.first_name || ' ' || u.last_name as name`,
      [hashToken(token)],
    );
    if (!ended) return;
    await writeAudit(
      tx,
      { ...actor, userId: ended.user_id, userName: ended.name },
      {
        planId: ended.plan_id,
        domain: 'Authentication',
        action: 'Logout',
        entityId: ended.user_id,
      },
    );
  });
}

interface TokenUser {
  id: number;
  plan_id: number;
  username: string;
  email: string | null;
  is_blocked: boolean;
  first_name: string;
  last_name: string;
}

async function tokenUser(q: Queryable, userId: number): Promise<TokenUser> {
  const [user] = await q.query<TokenUser>(
    `select id, plan_id, username, email, is_blocked, first_name, last_name
       from users where id = $1 and archived_at is null`,
    [userId],
  );
  if (!user) throw new AppError('InvalidToken');
  return user;
}

export async function checkResetLink(
  db: Db,
  userId: number | undefined,
  token: string | undefined,
) {
  if (!userId || !token) throw new AppError('InvalidToken');
  const user = await tokenUser(db, userId);
  await checkOneTimeToken(db, user.id, 'reset', token);
  const policy = await loadPasswordPolicy(db, user.plan_id);
  return {
    username: user.email ?? user.username,
    passwordPolicySettings: {
      minPasswordLength: policy.minPasswordLength,
      minCapital: policy.minCapital,
      minNumber: policy.minNumber,
      specialCharacters: policy.specialCharacters,
    },
  };
}

export async function resetPassword(
  db: Db,
  actor: Actor,
  userId: number,
  token: string,
  password: string,
) {
  await db.transaction(async (tx) => {
    const user = await tokenUser(tx, userId);
    const tokenId = await checkOneTimeToken(tx, user.id, 'reset', token, { lock: true });
    const who = { ...actor, userId: user.id, userName: `${user.first_name} ${user.last_name}` };
    await setPassword(tx, who, user, password, 'PasswordReset');
    await spendOneTimeToken(tx, tokenId);
  });
}

/** With the one-time token of a change-password link, or as the signed-in user with the old password. */
export async function changePassword(
  db: Db,
  actor: Actor,
  input: {
    username: string;
    newPassword: string;
    existingPassword?: string | undefined;
    token?: string | undefined;
  },
  session: ResolvedSession | null,
): Promise<void> {
  const found = await findUserForLogin(db, input.username);
  if (!found) throw new AppError('RequestingUserNotfound');
  assertLocalPassword(found);
  await db.transaction(async (tx) => {
    const user = await tokenUser(tx, found.id);
    const who = { ...actor, userId: user.id, userName: `${user.first_name} ${user.last_name}` };
    let tokenId: number | null = null;
    if (input.token) {
      tokenId = await checkOneTimeToken(tx, user.id, 'reset', input.token, { lock: true });
    } else {
      if (!session || session.user.id !== user.id) throw new AppError('SessionExpired');
      if (input.existingPassword === undefined) {
        throw validationError([
          { property: 'existingPassword', constraints: { required: 'is required' } },
        ]);
      }
      if (!(await verifyPassword(found.password_hash, input.existingPassword))) {
        throw new AppError('InvalidEmailOrPasswordError', 'The existing password is not correct');
      }
    }
    await setPassword(tx, who, user, input.newPassword, 'PasswordChange');
    if (tokenId !== null) await spendOneTimeToken(tx, tokenId);
  });
}
