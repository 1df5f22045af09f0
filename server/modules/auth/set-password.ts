import {
  brokenPasswordRules,
  COMPLEXITY_MESSAGES,
  minLengthMessage,
  type PasswordRule,
} from '#core/password/password-policy.ts';
import { AppError } from '#core/errors/errors.ts';
import type { Queryable } from '#server/db/db.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import { NOW, updateVersioned } from '#server/entities/versioned-update.ts';
import { loadPasswordPolicy } from './policy.ts';
import { hashPassword, verifyPassword } from '#server/util/secrets.ts';

/** Throws the catalogue's error for the first policy rule the password breaks. */
export function assertPasswordMeetsPolicy(
  password: string,
  policy: Parameters<typeof brokenPasswordRules>[1],
): void {
  const broken = brokenPasswordRules(password, policy);
  if (broken.includes('length')) {
    throw new AppError('PasswordMinLengthError', minLengthMessage(policy.minPasswordLength));
  }
  if (broken.length > 0) {
    const messages = broken.map(
      (rule) => COMPLEXITY_MESSAGES[rule as Exclude<PasswordRule, 'length'>],
    );
    throw new AppError('PasswordNotComplexError', messages.join('. '), { otherErrors: messages });
  }
}

/**
 * Sets a user's password inside the caller's transaction: policy, reuse of the last N passwords,
 * the new hash, history, unlock, end of every session, and the audit row (the user's history).
 */
export async function setPassword(
  tx: Queryable,
  actor: Actor,
  user: { id: number; plan_id: number; is_blocked: boolean },
  password: string,
  action: 'PasswordReset' | 'PasswordChange' | 'PasswordSetWithSecretKey',
): Promise<{ endedSessions: number }> {
  if (user.is_blocked) throw new AppError('UserBlockedError');
  const policy = await loadPasswordPolicy(tx, user.plan_id);
  assertPasswordMeetsPolicy(password, policy);

  const previous = await tx.query<{ password_hash: string }>(
    `(select password_hash from users where id = $1 and password_hash is not null)
     union all
     (select password_hash from password_history where user_id = $1
       order by created_at desc, id desc limit $2)`,
    [user.id, policy.passwordHistoryCount],
  );
  for (const row of previous) {
    if (await verifyPassword(row.password_hash, password))
      throw new AppError('PasswordAlreadyUsed');
  }

  const passwordHash = await hashPassword(password);
  await updateVersioned(
    tx,
    { table: 'users', ownerColumn: 'plan_id', ownerId: user.plan_id, id: user.id },
    actor.userId,
    {
      password_hash: passwordHash,
      password_changed_at: NOW,
      must_change_password: false,
      failed_attempts: 0,
      locked_until: null,
    },
  );
  await tx.query('insert into password_history (user_id, password_hash) values ($1, $2)', [
    user.id,
    passwordHash,
  ]);
  const ended = await tx.query(
    `update sessions set ended_at = now(), end_reason = 'revoked'
      where user_id = $1 and ended_at is null returning id`,
    [user.id],
  );
  await writeAudit(tx, actor, {
    planId: user.plan_id,
    domain: 'User',
    action,
    entityId: user.id,
    newValues: { passwordChanged: true, endedSessions: ended.length },
  });
  return { endedSessions: ended.length };
}
