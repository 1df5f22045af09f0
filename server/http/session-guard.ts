import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '#core/errors/errors.ts';
import type { PermissionMap } from '#core/permissions/permission-map.ts';
import { MAX_ID } from '#core/schemas/common.schemas.ts';
import type { Db } from '../db/db.ts';
import type { Actor } from '../db/audit-write.ts';
import {
  resolveSession,
  type ResolvedSession,
  type SessionLimits,
} from '../sessions/session-lookup.ts';
import type { Config } from '../config.ts';
import type { AccessCache } from './access-cache.ts';
import { hashToken } from '../util/secrets.ts';
import { asGuard } from './route-guard.ts';
import {
  RefusedApiToken,
  bearerTokenOf,
  resolveApiToken,
  type RefusedTokenAccount,
} from '../sessions/api-token-lookup.ts';

export const SESSION_COOKIE = 'connect.sid';
/** Sent 'true' by the client on polls no user asked for; they leave the idle clock alone. */
export const BACKGROUND_HEADER = 'x-background-refresh';

declare module 'fastify' {
  interface FastifyRequest {
    session: ResolvedSession | null;
    /** A service account whose token this request was refused with (audited when it ends). */
    refusedToken: RefusedTokenAccount | null;
  }
}

/**
 * The token header authorises every call. The cookie alone authorises only reads (browser
 * downloads such as PDF links), so a cross-site form can never change anything.
 */
export function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.token;
  if (typeof header === 'string' && header.length > 0) return header;
  if (request.method === 'GET' || request.method === 'HEAD') {
    const cookie = request.cookies?.[SESSION_COOKIE];
    if (cookie) return cookie;
  }
  return undefined;
}

const tokenHashes = new WeakMap<FastifyRequest, string>();

/**
 * The hash of the request's token (tokenOf), worked out once per request: the rate limit and the
 * session guard both look the session up by it.
 */
export function tokenHashOf(request: FastifyRequest): string | undefined {
  let hash = tokenHashes.get(request);
  if (hash === undefined) {
    const token = tokenOf(request);
    if (token === undefined) return undefined;
    tokenHashes.set(request, (hash = hashToken(token)));
  }
  return hash;
}

export function actorOf(request: FastifyRequest): Actor {
  const agent = request.headers['user-agent'];
  const user = request.session?.user;
  const account = request.session?.serviceAccount;
  return {
    userId: user?.id ?? null,
    // A service account's rows name the account and the person who answers for it.
    userName: !user
      ? null
      : account
        ? `${user.first_name} (service account of ${account.ownerName})`
        : `${user.first_name} ${user.last_name}`,
    ip: request.ip ?? null,
    userAgent: typeof agent === 'string' ? agent.slice(0, 512) : null,
    requestId: request.id,
  };
}

export function sessionLimitsOf(config: Config): SessionLimits {
  return { idleMinutes: config.SESSION_IDLE_MINUTES, maxHours: config.SESSION_MAX_HOURS };
}

function isId(value: number): boolean {
  return Number.isInteger(value) && value > 0 && value <= MAX_ID;
}

/**
 * A call no user asked for: a poll marked by the client, or an event stream (a browser's
 * EventSource cannot set headers, and it reconnects by itself whenever a proxy drops it). Either
 * would otherwise keep an unattended session open for ever (21 CFR 11.10(d), Annex 11 §12).
 */
function isBackground(request: FastifyRequest): boolean {
  return (
    request.headers[BACKGROUND_HEADER] === 'true' ||
    String(request.headers.accept ?? '').startsWith('text/event-stream')
  );
}

/** `access` is the app's cache of sessions (access-cache.ts); without it each call reads the database. */
export function sessionGuard(db: Db, limits: SessionLimits, access?: AccessCache) {
  return asGuard(async function requireSession(
    request: FastifyRequest,
    _reply: FastifyReply,
  ): Promise<void> {
    // Resolved once per request: when it arrived (guard-order.ts), then reused by the guard.
    if (request.session) return;
    // Another system calls with a service account's API token (issue 33).
    const bearer = bearerTokenOf(request.headers.authorization);
    if (bearer !== undefined) {
      try {
        request.session = await resolveApiToken(db, bearer, request.ip ?? null);
      } catch (error) {
        if (error instanceof RefusedApiToken) request.refusedToken = error.account;
        throw error;
      }
      return;
    }
    const token = tokenOf(request);
    const options = { isBackground: isBackground(request) };
    request.session = access
      ? await access.resolve(token, options, tokenHashOf(request))
      : await resolveSession(db, token, limits, options);
  });
}

export function sessionOf(request: FastifyRequest): ResolvedSession {
  if (!request.session) throw new AppError('SessionExpired');
  return request.session;
}

/** A user reaches only their own plan, and within it only the facilities granted to them. */
export function assertPlan(session: ResolvedSession, planId: number): void {
  if (session.user.plan_id !== planId) throw new AppError('NotAllowed');
}

/**
 * The user's permissions in a facility of the path. They come with the session (one query when
 * it is read, none after: server/http/access-cache.ts).
 */
export function facilityPermissions(
  session: ResolvedSession,
  planId: number,
  facilityId: number,
): PermissionMap {
  // Callers may pass path params before validation: what is not an id finds nothing.
  if (!isId(planId) || !isId(facilityId)) throw new AppError('NotFoundError');
  assertPlan(session, planId);
  const grant = session.grants.get(facilityId);
  if (!grant || grant.planId !== planId) throw new AppError('NotAllowed');
  return grant.permissions;
}
