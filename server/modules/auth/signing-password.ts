import { validationError } from '../../../core/errors/errors.ts';
import type { Db } from '../../db/db.ts';
import type { KeyConfig } from '../active-directory/active-directory.settings.ts';
import type { Actor } from '../audit/audit.service.ts';
import { clearAttempts, countAttempt, recordWrongPassword } from './auth.service.ts';
import { checkCountedPassword, SSO_SIGNER_MESSAGE } from './password-check.ts';
import { loadPasswordPolicy } from './policy.ts';
import type { UserRow } from './users.repo.ts';

function refuse(message: string): never {
  throw validationError([{ property: 'password', constraints: { password: message } }]);
}

/**
 * An electronic signature re-authenticates its signer (21 CFR 11.200(a)) by their auth type: a
 * wrong password is counted toward the lockout exactly as a failed sign-in is, and refused as a
 * DataValidationError on `password`; the session stays, so the signer may try again.
 */
export async function verifySigner(
  db: Db,
  config: KeyConfig,
  actor: Actor,
  userId: number,
  password: string,
): Promise<void> {
  const [user] = await db.query<
    Pick<UserRow, 'id' | 'plan_id' | 'password_hash' | 'auth_type' | 'username'>
  >('select id, plan_id, password_hash, auth_type, username from users where id = $1', [userId]);
  if (!user) refuse('Your password is not correct.');
  if (user.auth_type === 'sso') refuse(SSO_SIGNER_MESSAGE);
  // Refused before any bind: many directories take an empty password as an anonymous bind.
  if (password === '') refuse('Please input your Password!');
  const policy = await loadPasswordPolicy(db, user.plan_id);
  const locked = `Your account is locked after ${policy.maxLoginAttempts} failed attempts. Try again in ${policy.lockoutMinutes} minutes or contact your administrator.`;
  const attempt = await countAttempt(db, user.id);
  if (attempt === null || attempt > policy.maxLoginAttempts) refuse(locked);
  const right = await checkCountedPassword(db, config, user, password);
  if (typeof right === 'object') refuse(right.unchecked);
  if (!right) {
    const failed = { action: 'SignatureFailed', values: { reason: 'wrong password' } };
    if (await recordWrongPassword(db, actor, user, failed, attempt, policy)) refuse(locked);
    const left = policy.maxLoginAttempts - attempt;
    refuse(
      `Your password is not correct. ${left} attempt${left === 1 ? '' : 's'} left before your account is locked.`,
    );
  }
  await clearAttempts(db, user.id);
}
