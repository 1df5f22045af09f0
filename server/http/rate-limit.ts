import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '#core/errors/errors.ts';
import type { Config } from '../config.ts';
import type { Db, Queryable } from '../db/db.ts';
import type { AccessCache } from './access-cache.ts';
import { PROBE_PATHS } from './request-log.ts';
import { tokenHashOf } from './session-guard.ts';

export interface RateLimit {
  /** Separates the counters of different limits that may share a key. */
  scope: string;
  max: number;
  windowSeconds: number;
  keyOf: (request: FastifyRequest) => string | Promise<string>;
  /**
   * Whether an instance may count hits in memory and add them to the database's counter in
   * batches (at least every second, and never near the limit): for the API limit, whose every
   * call would otherwise write the same counter row. Across instances the limit may then be
   * passed by a tenth of it per instance; a sign-in limit stays exact.
   */
  isBatched?: boolean;
}

/**
 * Counts one hit of `key` in its current fixed window, in one atomic statement, and says how
 * many the window holds and in how many seconds it ends.
 */
export async function countHit(
  q: Queryable,
  key: string,
  windowSeconds: number,
  count = 1,
): Promise<{ hits: number; resetSeconds: number }> {
  const [row] = await q.query<{ hits: number; reset_seconds: number }>(
    `insert into rate_limit_counters as c (key, window_started_at, hits) values ($1, now(), $3)
     on conflict (key) do update
       set hits = case when c.window_started_at + make_interval(secs => $2) <= now()
                       then $3 else c.hits + $3 end,
           window_started_at = case when c.window_started_at + make_interval(secs => $2) <= now()
                                    then now() else c.window_started_at end
     returning hits,
       greatest(1, ceil(extract(epoch from
         (window_started_at + make_interval(secs => $2) - now()))))::int as reset_seconds`,
    [key, windowSeconds, count],
  );
  return { hits: row?.hits ?? count, resetSeconds: row?.reset_seconds ?? windowSeconds };
}

/** A batched limit's view of one key: the database's count when last written, and hits since. */
interface KeyCount {
  hits: number;
  pending: number;
  syncedAt: number;
  resetAt: number;
}

const SYNC_MS = 1000;
/** Past this many keys the memory starts over (each key then writes its next hit at once). */
const MAX_KEYS = 50_000;

/**
 * Counts a hit of a batched limit: in memory while the key is far from the limit and was
 * written to the database less than a second ago, else in the database with the hits since.
 */
function batchedCounter(db: Db, limit: RateLimit) {
  const counts = new Map<string, KeyCount>();
  const batch = Math.floor(limit.max / 10);
  return async (key: string): Promise<{ hits: number; resetSeconds: number }> => {
    const now = performance.now();
    const known = counts.get(key);
    if (
      known &&
      now - known.syncedAt < SYNC_MS &&
      now < known.resetAt &&
      known.pending < batch &&
      known.hits + known.pending + batch < limit.max
    ) {
      known.pending += 1;
      return {
        hits: known.hits + known.pending,
        resetSeconds: Math.max(1, Math.ceil((known.resetAt - now) / 1000)),
      };
    }
    const pending = (known?.pending ?? 0) + 1;
    if (known) {
      known.pending = 0;
      // The hits that arrive while this write is under way stay in memory: else each of them
      // wrote too, all waiting on the lock of the same row (dozens per second under load).
      known.syncedAt = now;
      known.hits += pending;
    }
    const counted = await countHit(db, key, limit.windowSeconds, pending);
    const since = known && counts.get(key) === known ? known.pending : 0;
    if (counts.size >= MAX_KEYS) counts.clear();
    counts.set(key, {
      hits: counted.hits,
      pending: since,
      syncedAt: now,
      resetAt: now + counted.resetSeconds * 1000,
    });
    return counted;
  };
}

/** A hook that answers 429 with Retry-After once `limit` is used up in the current window. */
export function rateLimitHook(db: Db, limit: RateLimit) {
  const count = limit.isBatched
    ? batchedCounter(db, limit)
    : (key: string) => countHit(db, key, limit.windowSeconds);
  return async function rateLimited(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const key = `${limit.scope}:${await limit.keyOf(request)}`;
    const { hits, resetSeconds } = await count(key);
    reply.header('x-ratelimit-limit', limit.max);
    reply.header('x-ratelimit-remaining', Math.max(0, limit.max - hits));
    reply.header('x-ratelimit-reset', resetSeconds);
    if (hits > limit.max) {
      reply.header('retry-after', resetSeconds);
      throw new AppError(
        'TooManyRequests',
        `Too many requests. Try again in ${resetSeconds} seconds.`,
      );
    }
  };
}

/** The signed-in user of the request's token, or else the address it came from. */
async function userOrAddress(
  db: Db,
  access: AccessCache,
  request: FastifyRequest,
): Promise<string> {
  const tokenHash = tokenHashOf(request);
  if (tokenHash) {
    const cached = access.userOf(tokenHash);
    if (cached !== undefined) return `user:${cached}`;
    const [session] = await db.query<{ user_id: number }>(
      'select user_id from sessions where token_hash = $1 and ended_at is null',
      [tokenHash],
    );
    if (session) return `user:${session.user_id}`;
  }
  return `ip:${request.ip}`;
}

/** Every API call counts against its user's limit (the caller's address before sign-in). */
export function registerApiRateLimit(
  app: FastifyInstance,
  db: Db,
  config: Config,
  access: AccessCache,
): void {
  const hook = rateLimitHook(db, {
    scope: 'api',
    max: config.API_RATE_LIMIT_MAX,
    windowSeconds: config.API_RATE_LIMIT_WINDOW_SECONDS,
    keyOf: (request) => userOrAddress(db, access, request),
    isBatched: true,
  });
  // Monitors poll health; it reads nothing a user owns, so it stays outside the limit.
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path.startsWith('/api/') && !PROBE_PATHS.has(path)) await hook(request, reply);
  });
  // Every address ever seen keeps a row; rows of windows long over are dropped now and then.
  const sweep = setInterval(() => {
    db.query(
      `delete from rate_limit_counters where window_started_at < now() - interval '1 day'`,
    ).catch((error: unknown) => app.log.warn({ err: error }, 'rate limit sweep failed'));
  }, 3_600_000);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));
}
