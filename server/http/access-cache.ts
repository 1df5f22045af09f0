import type { FastifyInstance } from 'fastify';
import type { TLicenseState } from '#core/schemas/facilities.schemas.ts';
import type { FacilityKind } from '#core/facilities/facility-features.ts';
import type { Db } from '../db/db.ts';
import {
  isPastLimits,
  lookupSession,
  touchSession,
  TOUCH_AFTER_SECONDS,
  type ResolvedSession,
  type SessionLimits,
  type SessionLookup,
} from '../sessions/session-lookup.ts';
import { hashToken } from '../util/secrets.ts';

/*
 * What every request's guards read — its session with the user's grants, and the facility of
 * its path — kept in memory while the database's access_epoch stands (issue 16). The epoch moves
 * with every committed change to users, departments, roles, grants, facilities or the end of a
 * session (migration 20261128140000_access_epoch.sql), so:
 * - on this instance, any state-changing call (or a job's change, or another instance's) is seen
 *   by the first request that starts after its answer was sent: every non-read answer makes the
 *   next request read the epoch again;
 * - otherwise the epoch is read at most every `ttlMs`, so a change made elsewhere reaches this
 *   instance within that time.
 * Idle and age limits are kept from the moment the session was read; whether a session has
 * expired is always decided by the database (lookupSession).
 */

export interface FacilityState extends FacilityKind {
  licenseState: TLicenseState;
}

export interface AccessCache {
  /**
   * The session of a token, as lookupSession answers it, from memory when it may. `tokenHash`
   * is hashToken(token) when the caller has it already.
   */
  resolve(
    token: string | undefined,
    options: { isBackground?: boolean },
    tokenHash?: string,
  ): Promise<ResolvedSession>;
  /** A facility's tier, product type and licence state; undefined for no such facility. */
  facility(facilityId: number): Promise<FacilityState | undefined>;
  /**
   * The user of a session held in memory, by hashToken of its token (for the rate limit, which
   * counts before the guard).
   */
  userOf(tokenHash: string): number | undefined;
  /** A state-changing call has answered: the next request reads the epoch again. */
  noteWrite(): void;
}

export const ACCESS_CACHE_MS = 2000;
/** Past this many sessions the cache starts over rather than grow without bound. */
const MAX_SESSIONS = 20_000;
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

interface CachedSession {
  lookup: SessionLookup;
  /** performance.now() when idleSeconds and ageSeconds were true. */
  at: number;
}

export function createAccessCache(
  db: Db,
  limits: SessionLimits,
  ttlMs: number = ACCESS_CACHE_MS,
): AccessCache {
  let epoch = 0;
  let checkedAt = -Infinity;
  // Non-read answers sent so far, and how many of them the last epoch read started after.
  let writes = 0;
  let checkedWrites = 0;
  let checking: { writes: number; done: Promise<void> } | null = null;
  const sessions = new Map<string, CachedSession>();
  const facilities = new Map<number, FacilityState>();

  /** Takes what a read saw; true when it was read at the epoch in force (so may be kept). */
  function adopt(seen: number): boolean {
    if (seen > epoch) {
      epoch = seen;
      sessions.clear();
      facilities.clear();
    }
    return seen === epoch;
  }

  function fresh(): Promise<void> {
    const needed = writes;
    if (needed === checkedWrites && performance.now() - checkedAt < ttlMs) return Promise.resolve();
    if (checking?.writes === needed) return checking.done;
    const startedAt = performance.now();
    const done = db
      .query<{ epoch: string }>('select epoch::text from access_epoch')
      .then(([row]) => {
        adopt(Number(row?.epoch ?? 0));
        if (needed >= checkedWrites) {
          checkedWrites = needed;
          checkedAt = startedAt;
        }
      })
      .finally(() => {
        if (checking?.done === done) checking = null;
      });
    checking = { writes: needed, done };
    return done;
  }

  async function resolve(
    token: string | undefined,
    options: { isBackground?: boolean },
    tokenHash?: string,
  ): Promise<ResolvedSession> {
    if (!token) return (await lookupSession(db, token, limits, options)).session;
    await fresh();
    const key = tokenHash ?? hashToken(token);
    const cached = sessions.get(key);
    if (cached) {
      const elapsed = (performance.now() - cached.at) / 1000;
      const now = {
        idleSeconds: cached.lookup.idleSeconds + elapsed,
        ageSeconds: cached.lookup.ageSeconds + elapsed,
      };
      // Near a limit, the database decides (another instance may have kept it alive).
      if (!isPastLimits(now, limits)) {
        if (now.idleSeconds > TOUCH_AFTER_SECONDS && !options.isBackground) {
          sessions.set(key, {
            lookup: { ...cached.lookup, idleSeconds: 0, ageSeconds: now.ageSeconds },
            at: performance.now(),
          });
          await touchSession(db, cached.lookup.session.sessionId);
        }
        return cached.lookup.session;
      }
      sessions.delete(key);
    }
    const lookup = await lookupSession(db, token, limits, options);
    if (adopt(lookup.epoch)) {
      if (sessions.size >= MAX_SESSIONS) sessions.clear();
      sessions.set(key, { lookup, at: performance.now() });
    }
    return lookup.session;
  }

  async function facility(facilityId: number): Promise<FacilityState | undefined> {
    await fresh();
    const cached = facilities.get(facilityId);
    if (cached) return cached;
    const [row] = await db.query<FacilityState & { epoch: string }>(
      `select tier, product_type as "productType", license_state as "licenseState",
              (select epoch from access_epoch)::text as epoch
         from facilities where id = $1`,
      [facilityId],
    );
    if (!row) return undefined;
    const { epoch: seen, ...state } = row;
    if (adopt(Number(seen))) facilities.set(facilityId, state);
    return state;
  }

  return {
    resolve,
    facility,
    userOf: (tokenHash) => sessions.get(tokenHash)?.lookup.session.user.id,
    noteWrite: () => {
      writes += 1;
    },
  };
}

/**
 * Every answer to a state-changing call marks the cache, before it is sent: whoever asks after
 * it arrived is answered on the epoch it committed.
 */
export function watchWrites(app: FastifyInstance, access: AccessCache): void {
  // A callback, not an async hook: it runs for every answer, and a promise costs a turn.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (!READS.has(request.method)) access.noteWrite();
    done(null, payload);
  });
}
