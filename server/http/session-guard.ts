import { refusalDomainOf } from '#core/audit/audit-events.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '#core/errors/errors.ts';
import {
  isAllowed,
  mergePermissionMaps,
  type PermissionMap,
} from '#core/permissions/permission-map.ts';
import { MAX_ID } from '#core/schemas/common.schemas.ts';
import type { Db } from '../db/db.ts';
import { writeAudit, type Actor } from '../db/audit-write.ts';
import {
  resolveSession,
  type ResolvedSession,
  type SessionLimits,
} from '../sessions/session-lookup.ts';
import type { Config } from '../config.ts';
import type { AccessCache } from './access-cache.ts';
import { hashToken } from '../util/secrets.ts';

export const SESSION_COOKIE = 'connect.sid';
/** Sent 'true' by the client on polls no user asked for; they leave the idle clock alone. */
export const BACKGROUND_HEADER = 'x-background-refresh';

declare module 'fastify' {
  interface FastifyRequest {
    session: ResolvedSession | null;
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
  return {
    userId: user?.id ?? null,
    userName: user ? `${user.first_name} ${user.last_name}` : null,
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

/** `access` is the app's cache of sessions (access-cache.ts); without it each call reads the database. */
export function sessionGuard(db: Db, limits: SessionLimits, access?: AccessCache) {
  return async function requireSession(
    request: FastifyRequest,
    _reply: FastifyReply,
  ): Promise<void> {
    // Resolved once per request: when it arrived (guard-order.ts), then reused by the guard.
    if (request.session) return;
    const token = tokenOf(request);
    const options = { isBackground: request.headers[BACKGROUND_HEADER] === 'true' };
    request.session = access
      ? await access.resolve(token, options, tokenHashOf(request))
      : await resolveSession(db, token, limits, options);
  };
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

export function assertAllowed(
  session: ResolvedSession,
  scope: { plan: number; facility: number },
  resource: string,
  action: string,
): PermissionMap {
  const permissions = facilityPermissions(session, scope.plan, scope.facility);
  if (!isAllowed(permissions, resource, action)) {
    throw new AppError('NotAllowed', `${resource} ${action} failed as current user is not allowed`);
  }
  return permissions;
}

/** Guard of a facility-scoped route (params plan and facility): session, facility, permission. */
export function requirePermission(db: Db, limits: SessionLimits, resource: string, action: string) {
  const requireSession = sessionGuard(db, limits);
  return async function guard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await requireSession(request, reply);
    const params = request.params as { plan?: unknown; facility?: unknown };
    // Guards run before the params are validated (guard-order.ts): refuse what is not an id.
    const plan = Number(params.plan);
    const facility = Number(params.facility);
    if (!isId(plan) || !isId(facility)) throw new AppError('NotFoundError');
    await auditRefusal(db, request, { resource, action, facility }, () =>
      assertAllowed(sessionOf(request), { plan, facility }, resource, action),
    );
  };
}

/**
 * A refused attempt is a GMP event too (Annex 11 §12): a 403 of a guard leaves an audit row,
 * written on its own since nothing else of the request runs. The facility asked for goes into
 * the values, not the facility column: it may be one the user has no business knowing exists.
 */
export async function auditRefusal(
  db: Db,
  request: FastifyRequest,
  attempt: { resource: string; action: string; facility?: number },
  check: () => unknown,
): Promise<void> {
  try {
    await check();
  } catch (error) {
    if (error instanceof AppError && error.errName === 'NotAllowed') {
      await writeAudit(db, actorOf(request), {
        planId: sessionOf(request).user.plan_id,
        domain: refusalDomainOf(attempt.resource),
        action: 'AccessRefused',
        newValues: {
          attempted: attempt.action,
          route: `${request.method} ${request.routeOptions.url ?? request.url}`,
          ...(attempt.facility === undefined ? {} : { facility: attempt.facility }),
        },
      });
    }
    throw error;
  }
}

/**
 * Guard of a plan-wide route (users, departments): the user's roles in any facility of their
 * plan must allow the action.
 */
export function requirePlanPermission(
  db: Db,
  limits: SessionLimits,
  resource: string,
  action: string,
) {
  const requireSession = sessionGuard(db, limits);
  return async function guard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await requireSession(request, reply);
    const session = sessionOf(request);
    await auditRefusal(db, request, { resource, action }, async () => {
      const all = [...session.grants.values()].map((grant) => grant.permissions);
      if (!isAllowed(mergePermissionMaps(all), resource, action)) {
        throw new AppError(
          'NotAllowed',
          `${resource} ${action} failed as current user is not allowed`,
        );
      }
    });
  };
}

/**
 * Guard of what only a system administrator does (licences, facility groups: the spec's
 * permission map has no resource for them). `facility` is the one of the path, if any.
 */
export function requireSystemAdmin(
  db: Db,
  limits: SessionLimits,
  resource: string,
  action: string,
) {
  const requireSession = sessionGuard(db, limits);
  return async function guard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await requireSession(request, reply);
    const session = sessionOf(request);
    const facility = Number((request.params as { facility?: unknown }).facility);
    await auditRefusal(
      db,
      request,
      { resource, action, ...(isId(facility) ? { facility } : {}) },
      async () => {
        const plan = Number((request.params as { plan?: unknown }).plan);
        if (!isId(plan)) throw new AppError('NotFoundError');
        assertPlan(session, plan);
        if (!session.user.is_system_admin)
          throw new AppError(
            'NotAllowed',
            `${resource} ${action} failed as current user is not a system administrator`,
          );
      },
    );
  };
}
