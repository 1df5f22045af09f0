import { validationError } from '../../../core/errors/errors.ts';
import type { Db } from '../../db/db.ts';
import type { Actor } from '../audit/audit.service.ts';
import { clearAttempts, countAttempt, recordWrongPassword } from './auth.service.ts';
import { loadPasswordPolicy } from './policy.ts';
import { verifyPassword } from './secrets.ts';

function refuse(message: string): never {
  throw validationError([{ property: 'password', constraints: { password: message } }]);
}

/**
 * An electronic signature re-authenticates its signer (21 CFR 11.200(a)): a wrong password is
 * counted toward the lockout exactly as a failed sign-in is, and refused as a DataValidationError
 * on `password`; the session stays, so the signer may try again.
 */
export async function verifySigningPassword(
  db: Db,
  actor: Actor,
  userId: number,
  password: string,
): Promise<void> {
  const [user] = await db.query<{ id: number; plan_id: number; password_hash: string | null }>(
    'select id, plan_id, password_hash from users where id = $1',
    [userId],
  );
  if (!user) refuse('Your password is not correct.');
  const policy = await loadPasswordPolicy(db, user.plan_id);
  const locked = `Your account is locked after ${policy.maxLoginAttempts} failed attempts. Try again in ${policy.lockoutMinutes} minutes or contact your administrator.`;
  const attempt = await countAttempt(db, user.id);
  if (attempt === null || attempt > policy.maxLoginAttempts) refuse(locked);
  if (!(await verifyPassword(user.password_hash, password))) {
    const failed = { action: 'SignatureFailed', values: { reason: 'wrong password' } };
    if (await recordWrongPassword(db, actor, user, failed, attempt, policy)) refuse(locked);
    const left = policy.maxLoginAttempts - attempt;
    refuse(
      `Your password is not correct. ${left} attempt${left === 1 ? '' : 's'} left before your account is locked.`,
    );
  }
  await clearAttempts(db, user.id);
}
