import type { FastifyRequest } from 'fastify';
import type { GuardResource } from '#core/permissions/permission-map.ts';
import {
  type AuditAction,
  type AuditDomain,
  type AuditNewValues,
} from '#core/audit/audit-events.ts';
import { AppError } from '#core/errors/errors.ts';
import type { Db } from '../db/db.ts';
import { writeAudit, type Actor } from '../db/audit-write.ts';
import { actorOf, sessionOf } from './session-guard.ts';

/** A refused attempt: 'AccessRefused', or an action of its own (a failed sign-in). */
export interface Refusal<D extends AuditDomain, A extends AuditAction<D>> {
  planId: number | null;
  domain: D;
  action: A;
  facilityId?: number | null;
  entityId?: string | number | null;
  values: AuditNewValues<D, A>;
}

/**
 * The one writer of refused attempts. A refusal is a GMP event too (21 CFR 11.10(e), EU GMP
 * Annex 11 §12): its row must survive the refusal, so it commits on its own, after whatever the
 * refused request had begun was rolled back.
 */
export async function writeRefusal<D extends AuditDomain, A extends AuditAction<D>>(
  db: Db,
  actor: Actor,
  refusal: Refusal<D, A>,
): Promise<void> {
  await db.transaction((tx) =>
    writeAudit<D, A>(tx, actor, {
      planId: refusal.planId,
      facilityId: refusal.facilityId ?? null,
      domain: refusal.domain,
      action: refusal.action,
      entityId: refusal.entityId ?? null,
      newValues: refusal.values,
    }),
  );
}

/**
 * Runs a check of a guard; a NotAllowed it throws leaves an 'AccessRefused' row, then goes on
 * to the caller. The facility asked for goes into the values, not the facility column: it may
 * be one the user has no business knowing exists.
 */
export async function auditRefusal(
  db: Db,
  request: FastifyRequest,
  attempt: { resource: GuardResource; action: string; facility?: number },
  check: () => unknown,
): Promise<void> {
  try {
    await check();
  } catch (error) {
    if (error instanceof AppError && error.errName === 'NotAllowed') {
      await writeRefusal(db, actorOf(request), {
        planId: sessionOf(request).user.plan_id,
        domain: attempt.resource,
        action: 'AccessRefused',
        values: {
          attempted: attempt.action,
          route: `${request.method} ${request.routeOptions.url ?? request.url}`,
          ...(attempt.facility === undefined ? {} : { facility: attempt.facility }),
        },
      });
    }
    throw error;
  }
}
