import type { AuditAction } from '#core/audit/audit-events.ts';
import { AppError } from '#core/errors/errors.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import { resetLinkMail } from '../mail/mail-templates.ts';
import type { Mailer } from '#server/util/mailer.ts';
import {
  checkSecretKey,
  issueOneTimeToken,
  resetPath,
  spendOneTimeToken,
} from './one-time-tokens.ts';
import { assertLocalPassword, findUserForLogin, type UserRow } from './users.repo.ts';

async function activeUser(db: Db, username: string): Promise<UserRow> {
  const user = await findUserForLogin(db, username);
  if (!user) throw new AppError('RequestingUserNotfound');
  if (user.is_blocked) throw new AppError('UserBlockedError');
  assertLocalPassword(user);
  return user;
}

/** Spends the secret key an administrator gave the user and opens a reset link for them. */
async function exchangeSecretKey(
  tx: Queryable,
  actor: Actor,
  user: UserRow,
  secretKey: string,
  action: AuditAction<'Authentication'>,
) {
  const keyId = await checkSecretKey(tx, user.id, secretKey);
  await spendOneTimeToken(tx, keyId);
  const token = await issueOneTimeToken(tx, user.id, 'reset', undefined, { fromSecretKey: true });
  await writeAudit(
    tx,
    { ...actor, userId: user.id, userName: `${user.first_name} ${user.last_name}` },
    {
      planId: user.plan_id,
      domain: 'Authentication',
      action,
      entityId: user.id,
      newValues: { secretKeyUsed: true },
    },
  );
  return resetPath(user.id, token);
}

export interface ForgotPasswordResult {
  isEmail: boolean;
  hasToken: boolean;
  result: string | null;
}

/**
 * A user with an e-mail gets a reset link by mail. A user without one must give the secret key
 * an administrator handed them: the first call says so, the second checks the key.
 */
export async function forgotPassword(
  db: Db,
  mailer: Mailer,
  actor: Actor,
  input: { username: string; secretKey?: string | undefined; verifyToken?: boolean | undefined },
  baseUrl: string,
): Promise<ForgotPasswordResult> {
  const user = await activeUser(db, input.username);
  if (user.email) {
    await db.transaction(async (tx) => {
      const token = await issueOneTimeToken(tx, user.id, 'reset');
      const name = `${user.first_name} ${user.last_name}`;
      await mailer.enqueue(
        tx,
        user.plan_id,
        user.email!,
        resetLinkMail(name, baseUrl + resetPath(user.id, token)),
      );
      await writeAudit(
        tx,
        { ...actor, userId: user.id, userName: name },
        {
          planId: user.plan_id,
          domain: 'Authentication',
          action: 'ResetLinkSent',
          entityId: user.id,
        },
      );
    });
    await mailer.deliverPending();
    return { isEmail: true, hasToken: false, result: null };
  }
  if (!input.verifyToken || !input.secretKey)
    return { isEmail: false, hasToken: true, result: null };
  const url = await db.transaction((tx) =>
    exchangeSecretKey(tx, actor, user, input.secretKey!, 'SecretKeyVerified'),
  );
  return { isEmail: false, hasToken: true, result: url };
}

/** First-time registration: employee ID and secret key lead to the set-password screen. */
export async function register(
  db: Db,
  actor: Actor,
  username: string,
  secretKey: string,
): Promise<string> {
  const user = await activeUser(db, username);
  return db.transaction((tx) => exchangeSecretKey(tx, actor, user, secretKey, 'Registered'));
}
