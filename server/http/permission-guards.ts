import { refusalText } from '#core/permissions/permission-texts.ts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '#core/errors/errors.ts';
import {
  isAllowed,
  mergePermissionMaps,
  type GuardResource,
} from '#core/permissions/permission-map.ts';
import { MAX_ID } from '#core/schemas/common.schemas.ts';
import type { Db } from '../db/db.ts';
import type { SessionLimits } from '../sessions/session-lookup.ts';
import type { AccessCache } from './access-cache.ts';
import type { Guard } from './app-context.ts';
import { auditRefusal } from './refusal-audit.ts';
import { assertPlan, facilityPermissions, sessionGuard, sessionOf } from './session-guard.ts';
import { asGuard } from './route-guard.ts';

/** A permission a request names (resource, action), or null when it names none. */
export type Named = [GuardResource, string] | null;

/** How a guard finds the permission a request names, given the valid ids of the path. */
export type NamedBy = (
  request: FastifyRequest,
  scope: { plan: number; facility: number },
) => Named | Promise<Named>;

/** An action fixed by the route, or read from the request (restoring needs the archive right). */
export type ActionOf = string | ((request: FastifyRequest) => string);

/**
 * An edit needs Modify; restoring an archived record (`unArchive` in the body) needs the right
 * that archived it.
 */
export function editOrRestore(archiveAction: string): ActionOf {
  return (request) =>
    (request.body as { unArchive?: unknown } | undefined)?.unArchive === true
      ? archiveAction
      : 'Modify';
}

function isId(value: number): boolean {
  return Number.isInteger(value) && value > 0 && value <= MAX_ID;
}

/**
 * An id of the path, read by a guard before validation: what is no id finds nothing (404), as
 * the route would answer.
 */
export function idOfPath(request: FastifyRequest, name: string): number {
  const id = Number((request.params as Record<string, unknown>)[name]);
  if (!isId(id)) throw new AppError('NotFoundError');
  return id;
}

function notAllowed(resource: GuardResource, action: string): AppError {
  // In words (issue 30): the client puts it after its own "… failed as current user is not
  // allowed" (spec §8), so a person learns which right is missing, never its key.
  return new AppError('NotAllowed', refusalText(resource, action));
}

/** The plan and facility of the path; guards run before validation, so what is no id finds nothing. */
function scopeOfPath(request: FastifyRequest): { plan: number; facility: number } {
  const params = request.params as { plan?: unknown; facility?: unknown };
  const plan = Number(params.plan);
  const facility = Number(params.facility);
  if (!isId(plan) || !isId(facility)) throw new AppError('NotFoundError');
  return { plan, facility };
}

/**
 * The guards every route declares (app-context.ts): each resolves the session, checks one thing
 * and audits a refusal the same way (refusal-audit.ts). Access is limited to authorised people
 * per 21 CFR 11.10(d) and EU GMP Annex 11 §12.
 */
export function createGuards(db: Db, limits: SessionLimits, access?: AccessCache) {
  const requireSession = sessionGuard(db, limits, access);
  const session = async (request: FastifyRequest, reply: Parameters<Guard>[1]) => {
    await requireSession(request, reply);
    return sessionOf(request);
  };

  /**
   * Session, the facility of the path, and one of these permissions in it (spec §6). `refusal`
   * words the refusal where the route has always said it its own way.
   */
  const permitAny = (
    choices: (request: FastifyRequest) => [GuardResource, string][],
    refusal?: (request: FastifyRequest) => string,
  ): Guard =>
    asGuard(async (request, reply) => {
      const user = await session(request, reply);
      const { plan, facility } = scopeOfPath(request);
      const wanted = choices(request);
      const [resource, action] = wanted[wanted.length - 1]!;
      await auditRefusal(db, request, { resource, action, facility }, () => {
        const permissions = facilityPermissions(user, plan, facility);
        if (!wanted.some(([r, a]) => isAllowed(permissions, r, a)))
          throw refusal
            ? new AppError('NotAllowed', refusal(request))
            : notAllowed(resource, action);
      });
    });

  const permit = (resource: GuardResource, action: ActionOf): Guard =>
    permitAny((request) => [[resource, typeof action === 'string' ? action : action(request)]]);

  /**
   * Session, a grant of the facility of the path, and the permission the request itself names
   * besides the route's, if any: a report kind's own, a saved custom report's source. `named`
   * reads it from the path or the body (before validation: it must accept anything), or loads
   * it from the facility of the path (a 404 it throws is the answer).
   */
  const permitNamed = (named: NamedBy): Guard =>
    asGuard(async (request, reply) => {
      const user = await session(request, reply);
      const { plan, facility } = scopeOfPath(request);
      const needed = await named(request, { plan, facility });
      const [resource, action] = needed ?? ['Facility', 'Member'];
      await auditRefusal(db, request, { resource, action, facility }, () => {
        const permissions = facilityPermissions(user, plan, facility);
        if (needed && !isAllowed(permissions, resource, action)) throw notAllowed(resource, action);
      });
    });

  /** Session and a grant of the facility of the path, whatever its roles allow. */
  const permitMember = (): Guard => permitNamed(() => null);

  /** Session and this permission in any facility of the user's plan (plan-wide data: users). */
  const permitPlan = (resource: GuardResource, action: ActionOf): Guard =>
    asGuard(async (request, reply) => {
      const user = await session(request, reply);
      const wanted = typeof action === 'string' ? action : action(request);
      await auditRefusal(db, request, { resource, action: wanted }, () => {
        const all = [...user.grants.values()].map((grant) => grant.permissions);
        if (!isAllowed(mergePermissionMaps(all), resource, wanted))
          throw notAllowed(resource, wanted);
      });
    });

  /**
   * What only a system administrator does (licences, facility groups: the spec's permission map
   * has no resource for them). `facility` is the one of the path, if any.
   */
  const permitSystemAdmin = (resource: GuardResource, action: string): Guard =>
    asGuard(async (request, reply) => {
      const user = await session(request, reply);
      const params = request.params as { plan?: unknown; facility?: unknown };
      const facility = Number(params.facility);
      const attempt = { resource, action, ...(isId(facility) ? { facility } : {}) };
      await auditRefusal(db, request, attempt, () => {
        const plan = Number(params.plan);
        if (!isId(plan)) throw new AppError('NotFoundError');
        assertPlan(user, plan);
        if (!user.user.is_system_admin)
          throw new AppError('NotAllowed', 'Only a system administrator may do this');
      });
    });

  return {
    requireSession,
    permit,
    permitAny,
    permitMember,
    permitNamed,
    permitPlan,
    permitSystemAdmin,
  };
}

export type Guards = ReturnType<typeof createGuards>;
