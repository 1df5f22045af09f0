import { AppError } from '#core/errors/errors.ts';
import type { Db } from '../db/db.ts';
import { hashToken } from '../util/secrets.ts';
import { GRANTS_OF_USER, grantsOf, type GrantRow, type ResolvedSession } from './session-lookup.ts';
import { SESSION_USER_COLUMNS, type SessionUserRow } from './session-user.ts';

interface TokenLookupRow extends SessionUserRow {
  token_id: number;
  owner_id: number;
  owner_name: string;
  usable: boolean;
  why: string;
  touch: boolean;
  grants: GrantRow[];
}

/** A service account whose token was refused, for the audit row of the refused call. */
export interface RefusedTokenAccount {
  userId: number;
  planId: number;
  name: string;
  ownerName: string;
  tokenId: number;
  /** Why: 'revoked', 'expired', 'account archived or blocked', 'owner archived or blocked'. */
  why: string;
}

/**
 * The 401 of a token that belongs to an account but cannot be used. It carries the account so
 * that the refused call is audited under it (issue 33: every call is audited under the account).
 */
export class RefusedApiToken extends AppError {
  constructor(readonly account: RefusedTokenAccount) {
    super('SessionExpired', REFUSED_TOKEN);
  }
}

const REFUSED_TOKEN = 'The API token is unknown, expired or revoked';

/** Last use is written at most this often per token: a minute's precision is enough to show. */
export const TOKEN_TOUCH_SECONDS = 30;

/** The value of `Authorization: Bearer <token>`; undefined without the header. */
export function bearerTokenOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header[0] : header;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value ?? '');
  // A malformed header is refused like an unknown token, never taken for no header at all.
  if (!match)
    throw new AppError('SessionExpired', 'The Authorization header must be: Bearer <token>');
  return match[1];
}

/**
 * The service account behind an API token, with its grants, or the catalogue's 401: an unknown,
 * expired or revoked token, an archived or blocked account, or an account whose owner is no
 * longer an active user (someone must answer for every account: 21 CFR 11.10(g), Annex 11 §12).
 * Nothing is cached: a revocation holds from the next call. Records the token's last use.
 */
export async function resolveApiToken(
  db: Db,
  token: string,
  ip: string | null,
): Promise<ResolvedSession> {
  const [row] = await db.query<TokenLookupRow>(
    `select t.id as token_id, o.id as owner_id, o.first_name || ' ' || o.last_name as owner_name,
            (t.revoked_at is null and t.expires_at > now() and not u.is_blocked
              and u.archived_at is null and not o.is_blocked and o.archived_at is null) as usable,
            case when t.revoked_at is not null then 'revoked'
                 when t.expires_at <= now() then 'expired'
                 when u.is_blocked or u.archived_at is not null then 'account archived or blocked'
                 else 'owner archived or blocked' end as why,
            (t.last_used_at is null
              or t.last_used_at < now() - make_interval(secs => $2)) as touch,
            ${GRANTS_OF_USER},
            ${SESSION_USER_COLUMNS}
       from api_tokens t join users u on u.id = t.user_id
       join users o on o.id = u.owner_id
       left join departments d on d.id = u.department_id
      where t.token_hash = $1`,
    [hashToken(token), TOKEN_TOUCH_SECONDS],
  );
  // An unknown token names nobody; a known one that cannot be used is refused under its account.
  if (!row) throw new AppError('SessionExpired', REFUSED_TOKEN);
  if (!row.usable)
    throw new RefusedApiToken({
      userId: row.id,
      planId: row.plan_id,
      name: row.first_name,
      ownerName: row.owner_name,
      tokenId: row.token_id,
      why: row.why,
    });
  if (row.touch) {
    await db.query('update api_tokens set last_used_at = now(), last_used_ip = $2 where id = $1', [
      row.token_id,
      ip,
    ]);
  }
  const { grants, token_id, owner_id, owner_name, usable: _u, why: _w, touch: _t, ...user } = row;
  return {
    sessionId: -token_id,
    user,
    grants: grantsOf(grants),
    serviceAccount: { tokenId: token_id, ownerId: owner_id, ownerName: owner_name },
  };
}
