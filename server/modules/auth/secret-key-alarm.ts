import type { Queryable } from '#server/db/db.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import type { Mailer } from '#server/util/mailer.ts';
import { passwordSetWithKeyMail, passwordSetWithKeySecurityMail } from '../mail/mail-templates.ts';

export interface KeyedAccount {
  id: number;
  plan_id: number;
  username: string;
  email: string | null;
  first_name: string;
  last_name: string;
}

/**
 * A secret key lets whoever holds it set the password of an account that already had one: the
 * administrator who issued it could then sign as the owner. 21 CFR 11.300(d) asks that such a
 * use be reported "in an immediate and urgent manner" to the security unit, so the owner and
 * every system administrator of the plan are mailed in the same transaction (sent after the
 * commit), and a Security audit row records it beside the row in the user's history.
 */
export async function announcePasswordSetWithKey(
  tx: Queryable,
  mailer: Mailer,
  actor: Actor,
  user: KeyedAccount,
  endedSessions: number,
): Promise<void> {
  const name = `${user.first_name} ${user.last_name}`;
  if (user.email) {
    await mailer.enqueue(tx, user.plan_id, user.email, passwordSetWithKeyMail(name, user.username));
  }
  const admins = await tx.query<{ id: number; email: string; name: string }>(
    `select id, email, first_name || ' ' || last_name as name from users
      where plan_id = $1 and is_system_admin and email is not null
        and archived_at is null and not is_blocked
      order by id`,
    [user.plan_id],
  );
  for (const admin of admins) {
    await mailer.enqueue(
      tx,
      user.plan_id,
      admin.email,
      passwordSetWithKeySecurityMail(admin.name, { name, username: user.username }),
    );
  }
  await writeAudit(tx, actor, {
    planId: user.plan_id,
    domain: 'Security',
    action: 'PasswordSetWithSecretKey',
    entityId: user.id,
    newValues: {
      username: user.username,
      endedSessions,
      ownerMailed: user.email !== null,
      administratorsMailed: admins.map((a) => a.id),
    },
  });
}
