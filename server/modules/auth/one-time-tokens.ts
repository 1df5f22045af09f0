import { AppError } from '#core/errors/errors.ts';
import type { Queryable } from '#server/db/db.ts';
import { hashToken, randomToken } from '#server/util/secrets.ts';

export type OneTimeKind = 'reset' | 'secret';

/** Reset links live 24 hours (spec §8, §9). */
export const RESET_LINK_HOURS = 24;

/** Issues a token; earlier unused tokens of the same kind stop working, so only the newest link counts. */
export async function issueOneTimeToken(
  q: Queryable,
  userId: number,
  kind: OneTimeKind,
  hours: number | null = RESET_LINK_HOURS,
  options: { fromSecretKey?: boolean } = {},
): Promise<string> {
  const token = randomToken();
  await q.query(
    `update one_time_tokens set used_at = now() where user_id = $1 and kind = $2 and used_at is null`,
    [userId, kind],
  );
  await q.query(
    `insert into one_time_tokens (user_id, kind, token_hash, expires_at, from_secret_key)
     values ($1, $2, $3, case when $4::int is null then 'infinity'::timestamptz
                              else now() + make_interval(hours => $4::int) end, $5)`,
    [userId, kind, hashToken(token), hours, options.fromSecretKey ?? false],
  );
  return token;
}

interface TokenRow {
  id: number;
  user_id: number;
  used: boolean;
  expired: boolean;
}

/** Checks a token without spending it: unknown → InvalidToken; used or too old → link expired. */
export async function checkOneTimeToken(
  q: Queryable,
  userId: number,
  kind: OneTimeKind,
  token: string,
  options: { lock?: boolean } = {},
): Promise<number> {
  const [row] = await q.query<TokenRow>(
    `select id, user_id, used_at is not null as used, expires_at <= now() as expired
       from one_time_tokens where token_hash = $1 and kind = $2 ${options.lock ? 'for update' : ''}`,
    [hashToken(token), kind],
  );
  if (!row || row.user_id !== userId) throw new AppError('InvalidToken');
  if (row.used || row.expired) throw new AppError('PasswordResetLinkExpiredError');
  return row.id;
}

/** Whether a reset link was given in exchange for an administrator's secret key. */
export async function isFromSecretKey(q: Queryable, tokenId: number): Promise<boolean> {
  const [row] = await q.query<{ from_secret_key: boolean }>(
    'select from_secret_key from one_time_tokens where id = $1',
    [tokenId],
  );
  return row?.from_secret_key === true;
}

/** Spends a token exactly once, even under concurrent use. */
export async function spendOneTimeToken(q: Queryable, tokenId: number): Promise<void> {
  const rows = await q.query(
    'update one_time_tokens set used_at = now() where id = $1 and used_at is null returning id',
    [tokenId],
  );
  if (rows.length === 0) throw new AppError('PasswordResetLinkExpiredError');
}

/** A secret key is valid until used; an unknown, spent or foreign key is InvalidToken. */
export async function checkSecretKey(
  q: Queryable,
  userId: number,
  secretKey: string,
): Promise<number> {
  const [row] = await q.query<TokenRow>(
    `select id, user_id, used_at is not null as used, expires_at <= now() as expired
       from one_time_tokens where token_hash = $1 and kind = 'secret' for update`,
    [hashToken(secretKey.trim())],
  );
  if (!row || row.user_id !== userId || row.used || row.expired) throw new AppError('InvalidToken');
  return row.id;
}

/** The set-password screen's address for a reset link or a forced change of password. */
export function resetPath(
  userId: number,
  token: string,
  reason?: 'first-login' | 'expired',
): string {
  const path = `/reset-password?u=${userId}&token=${encodeURIComponent(token)}`;
  return reason ? `${path}&reason=${reason}` : path;
}
