import type * as oidc from 'openid-client';
import type { Db } from '#server/db/db.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import { hashToken, randomToken } from '#server/util/secrets.ts';

/**
 * How old the provider's authentication may be when a signature rests on it: the signer signs
 * in again at the provider (prompt=login, max_age=0) and the signature must follow at once.
 */
export const SIGNING_MAX_AGE_SECONDS = 60;

/**
 * The callback of a signer's fresh authentication: the ID token's auth_time must be under
 * 60 s old (openid-client checked that it is there and within max_age); the proof it leaves is
 * kept as a hash and expires 60 s after auth_time, whichever signature spends it first.
 */
export async function issueSigningProof(
  db: Db,
  who: Actor,
  planId: number,
  claims: oidc.IDToken,
): Promise<string | null> {
  const authTime = Number(claims.auth_time);
  const age = Date.now() / 1000 - authTime;
  // A few seconds of clock skew either way; an auth_time in the future is not a fresh sign-in.
  if (!Number.isFinite(authTime) || age > SIGNING_MAX_AGE_SECONDS || age < -5) return null;
  const proof = randomToken();
  await db.transaction(async (tx) => {
    await tx.query(`delete from sso_signing_proofs where expires_at < now() - interval '1 day'`);
    await tx.query(
      `insert into sso_signing_proofs (proof_hash, user_id, auth_time, expires_at)
       values ($1, $2, to_timestamp($3), to_timestamp($3) + make_interval(secs => $4))`,
      [hashToken(proof), who.userId, authTime, SIGNING_MAX_AGE_SECONDS],
    );
    await writeAudit(tx, who, {
      planId,
      domain: 'Authentication',
      action: 'SsoReauthenticated',
      entityId: who.userId ?? null,
      newValues: { purpose: 'signature', authTime: new Date(authTime * 1000).toISOString() },
    });
  });
  return proof;
}

/** Spends a signing proof of this user; false when it is unknown, spent, expired or another's. */
export async function spendSigningProof(db: Db, userId: number, proof: string): Promise<boolean> {
  const spent = await db.query(
    `update sso_signing_proofs set used_at = now()
      where proof_hash = $1 and user_id = $2 and used_at is null and expires_at > now()
      returning user_id`,
    [hashToken(proof), userId],
  );
  return spent.length === 1;
}
