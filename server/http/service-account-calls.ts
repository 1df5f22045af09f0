import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/db.ts';
import { writeAudit } from '../db/audit-write.ts';
import { actorOf } from './session-guard.ts';

/**
 * Every call made with a service account's API token leaves an audit row under the account and
 * its owner (issue 33): which token, which call, and its answer — reads included, since no
 * person watches what another system does with its access (21 CFR 11.10(e), Annex 11 §12.4).
 * The row records no change of data; what a call changed is audited where it changed it.
 */
export function auditServiceAccountCalls(app: FastifyInstance, db: Db): void {
  app.addHook('onResponse', async (request, reply) => {
    const session = request.session;
    const refused = request.refusedToken;
    if (!session?.serviceAccount && !refused) return;
    // A call in a facility is recorded in that facility's trail.
    const facility = Number((request.params as { facility?: unknown } | undefined)?.facility);
    const call = {
      method: request.method,
      route: request.routeOptions.url ?? request.url.split('?')[0]!,
      status: reply.statusCode,
    };
    try {
      if (session?.serviceAccount) {
        await writeAudit(db, actorOf(request), {
          planId: session.user.plan_id,
          facilityId: session.grants.has(facility) ? facility : null,
          domain: 'ServiceAccount',
          action: 'Call',
          entityId: session.user.id,
          newValues: { tokenId: session.serviceAccount.tokenId, ...call },
        });
      } else if (refused) {
        // A revoked or expired token still names its account: the refused call is its event too.
        await writeAudit(
          db,
          {
            ...actorOf(request),
            userId: refused.userId,
            userName: `${refused.name} (service account of ${refused.ownerName})`,
          },
          {
            planId: refused.planId,
            facilityId: null,
            domain: 'ServiceAccount',
            action: 'Call',
            entityId: refused.userId,
            newValues: { tokenId: refused.tokenId, ...call, refused: refused.why },
          },
        );
      }
    } catch (error) {
      // The answer is sent; a failure to record it is an operational alarm, not the caller's.
      request.log.error({ err: error }, 'the audit row of a service account call was not written');
    }
  });
}
