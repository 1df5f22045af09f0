import type { FastifyRequest } from 'fastify';
import { AppError } from '#core/errors/errors.ts';
import type { Db } from '../db/db.ts';
import { writeAudit, type Actor } from '../db/audit-write.ts';
import { actorOf, sessionOf } from './session-guard.ts';

export interface Refusal {
  planId: number | null;
  domain: string;
  /** 'AccessRefused' unless the refusal has an action of its own (a failed sign-in). */
  action?: string;
  facilityId?: number | null;
  entityId?: string | number | null;
  values: Record<string, unknown>;
}

/**
 * The one writer of refused attempts. A refusal is a GMP event too (21 CFR 11.10(e), EU GMP
 * Annex 11 §12): its row must survive the refusal, so it commits on its own, after whatever the
 * refused request had begun was rolled back.
 */
export async function writeRefusal(db: Db, actor: Actor, refusal: Refusal): Promise<void> {
  await db.transaction((tx) =>
    writeAudit(tx, actor, {
      planId: refusal.planId,
      facilityId: refusal.facilityId ?? null,
      domain: refusal.domain,
      action: refusal.action ?? 'AccessRefused',
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
  attempt: { resource: string; action: string; facility?: number },
  check: () => unknown,
): Promise<void> {
  try {
    await check();
  } catch (error) {
    if (error instanceof AppError && error.errName === 'NotAllowed') {
      await writeRefusal(db, actorOf(request), {
        planId: sessionOf(request).user.plan_id,
        domain: attempt.resource,
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
