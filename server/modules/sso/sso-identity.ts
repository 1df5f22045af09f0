import type * as oidc from 'openid-client';
import type { Db } from '#server/db/db.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';

export interface SsoAccount {
  id: number;
  first_name: string;
  last_name: string;
  is_blocked: boolean;
  auth_type: string;
}

export type Identified = { user: SsoAccount } | { refused: string };

const ACCOUNT_COLUMNS = 'u.id, u.first_name, u.last_name, u.is_blocked, u.auth_type';

/**
 * The account an ID token proves, by the provider's identity (issuer and subject: OpenID
 * Connect Core 1.0 §2, "never reassigned"). The first sign-in finds the account by the token's
 * e-mail only when the provider says it verified it (`email_verified: true`), and links the
 * identity to the account; from then on the link alone decides, whatever the e-mail says.
 * A username claim (preferred_username, upn) is the user's to choose at many providers and
 * never names an account (21 CFR 11.100(a): a signature belongs to one individual only).
 */
export async function identifyAccount(
  db: Db,
  actor: Actor,
  planId: number,
  claims: oidc.IDToken,
): Promise<Identified> {
  const identity: Identity = [planId, claims.iss, claims.sub];
  const linked = await linkedAccount(db, identity);
  if (linked) return { user: linked };

  const email = typeof claims.email === 'string' ? claims.email.toLowerCase() : '';
  if (!email) return { refused: `no account linked to ${claims.sub} and no e-mail` };
  if (claims.email_verified !== true) {
    return { refused: `no account linked to ${claims.sub}; e-mail ${email} not verified` };
  }
  const [found] = await db.query<SsoAccount & { linked_subject: string | null }>(
    `select ${ACCOUNT_COLUMNS}, i.subject as linked_subject from users u
       left join sso_identities i on i.user_id = u.id and i.issuer = $3
      where u.plan_id = $1 and u.archived_at is null and lower(u.email) = $2`,
    [planId, email, claims.iss],
  );
  if (!found || found.auth_type !== 'sso') return { refused: `no active sso user for ${email}` };
  if (found.linked_subject !== null) {
    return { refused: `${email} is linked to another identity of ${claims.iss}` };
  }
  const user: SsoAccount = {
    id: found.id,
    first_name: found.first_name,
    last_name: found.last_name,
    is_blocked: found.is_blocked,
    auth_type: found.auth_type,
  };
  const who = { ...actor, userId: user.id, userName: `${user.first_name} ${user.last_name}` };
  const added = await db.transaction(async (tx) => {
    const rows = await tx.query(
      `insert into sso_identities (plan_id, user_id, issuer, subject) values ($1, $4, $2, $3)
       on conflict do nothing returning id`,
      [...identity, user.id],
    );
    if (rows.length === 0) return false;
    await writeAudit(tx, who, {
      planId,
      domain: 'User',
      action: 'SsoIdentityLinked',
      entityId: user.id,
      newValues: { issuer: claims.iss, subject: claims.sub, email },
    });
    return true;
  });
  if (added) return { user };
  // A parallel first sign-in linked first: whoever the link names now is the account.
  const now = await linkedAccount(db, identity);
  return now ? { user: now } : { refused: 'the identity was linked to another account' };
}

type Identity = [planId: number, issuer: string, subject: string];

async function linkedAccount(db: Db, identity: Identity): Promise<SsoAccount | undefined> {
  const [linked] = await db.query<SsoAccount>(
    `select ${ACCOUNT_COLUMNS} from sso_identities i join users u on u.id = i.user_id
      where i.plan_id = $1 and i.issuer = $2 and i.subject = $3 and u.archived_at is null`,
    identity,
  );
  return linked;
}
