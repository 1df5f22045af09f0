import type { AuditAction } from '#core/audit/audit-events.ts';
import { AppError, validationError } from '#core/errors/errors.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import { writeRefusal } from '#server/http/refusal-audit.ts';
import {
  checkOneTimeToken,
  isFromSecretKey,
  issueOneTimeToken,
  resetPath,
  spendOneTimeToken,
} from './one-time-tokens.ts';
import { loadPasswordPolicy } from './policy.ts';
import type { KeyConfig } from '../active-directory/active-directory.settings.ts';
import { checkPasswordAttempt } from './password-attempts.ts';
import { hashToken, randomToken, verifyPassword } from '#server/util/secrets.ts';
import { setPassword } from './set-password.ts';
import { announcePasswordSetWithKey } from './secret-key-alarm.ts';
import type { Mailer } from '#server/util/mailer.ts';
import { assertLocalPassword, findUserForLogin } from './users.repo.ts';
import { getSessionUser, toSessionUser } from '#server/sessions/session-user.ts';
import type { ResolvedSession } from '#server/sessions/session-lookup.ts';

/** A refused sign-in keeps its own action, written by the one writer of refusals. */
export async function auditSignInRefusal(
  db: Db,
  actor: Actor,
  planId: number | null,
  action: AuditAction<'Authentication'>,
  values: Record<string, unknown>,
  entityId?: number,
): Promise<void> {
  await writeRefusal(db, actor, {
    planId,
    domain: 'Authentication',
    action,
    entityId: entityId ?? null,
    values,
  });
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

/** A right password ends the count, unless a parallel wrong guess has locked the account. */
export async function clearAttempts(tx: Queryable, userId: number): Promise<void> {
  const cleared = await tx.query(
    `update users set failed_attempts = 0, locked_until = null
      where id = $1 and (locked_until is null or locked_until <= now()) returning id`,
    [userId],
  );
  if (cleared.length === 0) throw new AppError('LoginAttemptsExceeded', LOCKED_MESSAGE);
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
    await auditSignInRefusal(db, actor, null, 'LoginFailed', {
      username: identifier,
      reason: 'unknown user',
    });
    throw new AppError('RequestingUserNotfound');
  }
  const who = { ...actor, userId: user.id, userName: `${user.first_name} ${user.last_name}` };
  if (user.is_blocked) {
    await auditSignInRefusal(db, who, user.plan_id, 'LoginRefused', { reason: 'blocked' }, user.id);
    throw new AppError('UserBlockedError');
  }
  const refuseLocked = async (reason: string): Promise<never> => {
    await auditSignInRefusal(db, who, user.plan_id, 'LoginRefused', { reason }, user.id);
    throw new AppError('LoginAttemptsExceeded', LOCKED_MESSAGE);
  };
  if (user.is_locked) return refuseLocked('locked');
  if (user.auth_type === 'sso') {
    // Their identity is the provider's to prove: a password here (even an old one) is refused.
    await verifyPassword(null, password ?? '');
    await auditSignInRefusal(
      db,
      who,
      user.plan_id,
      'LoginRefused',
      { reason: 'sso user' },
      user.id,
    );
    throw new AppError('InvalidEmailOrPasswordError', 'This account signs in with single sign-on.');
  }
  if (password === undefined || password === '') {
    throw validationError([
      { property: 'password', constraints: { required: 'Please input your Password!' } },
    ]);
  }
  const policy = await loadPasswordPolicy(db, user.plan_id);
  const failed = { action: 'LoginFailed' as const, values: { username: identifier } };
  const checked = await checkPasswordAttempt(db, config, who, user, password, policy, failed);
  if (checked.outcome === 'locked') return refuseLocked('locked');
  if (checked.outcome === 'unchecked') {
    await auditSignInRefusal(
      db,
      who,
      user.plan_id,
      'LoginRefused',
      { reason: checked.message },
      user.id,
    );
    throw new AppError('InvalidEmailOrPasswordError', checked.message);
  }
  if (checked.outcome === 'wrong') {
    if (checked.locked) {
      throw new AppError(
        'LoginAttemptsExceeded',
        `Your account has been locked after ${policy.maxLoginAttempts} failed login attempts. Try again in ${policy.lockoutMinutes} minutes or contact your administrator.`,
      );
    }
    const left = policy.maxLoginAttempts - checked.attempt;
    throw new AppError(
      'InvalidEmailOrPasswordError',
      `Invalid Email/Employee ID or password. ${left} attempt${left === 1 ? '' : 's'} left before your account is locked.`,
    );
  }

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
  action: AuditAction<'Authentication'>,
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
  has_password: boolean;
}

async function tokenUser(q: Queryable, userId: number): Promise<TokenUser> {
  const [user] = await q.query<TokenUser>(
    `select id, plan_id, username, email, is_blocked, first_name, last_name,
            password_hash is not null as has_password
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
  mailer: Mailer,
  actor: Actor,
  userId: number,
  token: string,
  password: string,
) {
  const announced = await db.transaction(async (tx) => {
    const user = await tokenUser(tx, userId);
    const tokenId = await checkOneTimeToken(tx, user.id, 'reset', token, { lock: true });
    const who = { ...actor, userId: user.id, userName: `${user.first_name} ${user.last_name}` };
    // A first password set with a secret key is a registration; setting it again is an event.
    const again = user.has_password && (await isFromSecretKey(tx, tokenId));
    const set = await setPassword(
      tx,
      who,
      user,
      password,
      again ? 'PasswordSetWithSecretKey' : 'PasswordReset',
    );
    await spendOneTimeToken(tx, tokenId);
    if (again) await announcePasswordSetWithKey(tx, mailer, who, user, set.endedSessions);
    return again;
  });
  if (announced) await mailer.deliverPending();
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
