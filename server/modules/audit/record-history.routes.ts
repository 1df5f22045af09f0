import { actionOf, type EntityDef } from '#core/entities/entity.ts';
import { ZAuditLogPage, ZRecordHistoryQuery } from '#core/schemas/audit.schemas.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { ZId, ZIdParams } from '#core/schemas/common.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { pageOf, pageWindow } from '#server/db/paging.ts';
import { countAuditRows, listAuditRows } from './audit-log.service.ts';
import { auditNames } from './audit-names.ts';
import { recordHistoryWhere, userHistoryWhere } from './record-history.ts';
import { sessionOf } from '#server/http/session-guard.ts';
import { AppError } from '#core/errors/errors.ts';

/**
 * `GET …/{path}/{id}/history`: the record's audit rows, newest first, for its History tab.
 * Whoever may read the record may read what happened to it, as its version history.
 */
export function registerRecordHistoryRoutes({ app, db, permit }: AppContext, def: EntityDef) {
  typed(app).get(
    `/api/v2/plans/:plan/facilities/:facility/${def.path}/:id/history`,
    {
      preHandler: permit(def.resource, actionOf(def, 'get')),
      schema: {
        tags: [def.pluralLabel],
        summary: `What happened to a ${def.label.toLowerCase()}: its audit rows, newest first`,
        params: ZFacilityParams.extend({ id: ZId }),
        querystring: ZRecordHistoryQuery,
        response: { 200: ZAuditLogPage },
      },
    },
    async (request) => {
      const { plan, facility, id } = request.params;
      const where = recordHistoryWhere({
        def,
        planId: plan,
        facilityId: def.scope === 'plan' ? null : facility,
        id,
      });
      const [total, data] = await Promise.all([
        countAuditRows(db, where),
        listAuditRows(db, where, pageWindow(request.query)),
      ]);
      return { ...pageOf(data, total, request.query), names: await auditNames(db, plan, data) };
    },
  );
}

/**
 * `GET /api/v2/users/{id}/history`: what happened to a user's account, newest first, for the
 * users screen. Users are plan-wide, so it needs User Get in a facility of the plan, as reading
 * the user does.
 */
export function registerUserHistoryRoute({ app, db, permitPlan }: AppContext) {
  typed(app).get(
    '/api/v2/users/:id/history',
    {
      preHandler: permitPlan('User', 'Get'),
      schema: {
        tags: ['users'],
        summary: "What happened to a user's account: its audit rows, newest first (User Get)",
        description:
          'The rows of the account (invited, edited, locked, blocked, archived, its password set) and the security events about it, such as a password set again through a secret key. NotFoundError for a user of another plan.',
        params: ZIdParams,
        querystring: ZRecordHistoryQuery,
        response: { 200: ZAuditLogPage },
      },
    },
    async (request) => {
      const { user, grants } = sessionOf(request);
      const { id } = request.params;
      const [found] = await db.query('select 1 from users where id = $1 and plan_id = $2', [
        id,
        user.plan_id,
      ]);
      if (!found) throw new AppError('NotFoundError', `User ${id} was not found`);
      const where = userHistoryWhere(user.plan_id, [...grants.keys()], id);
      const [total, data] = await Promise.all([
        countAuditRows(db, where),
        listAuditRows(db, where, pageWindow(request.query)),
      ]);
      return {
        ...pageOf(data, total, request.query),
        names: await auditNames(db, user.plan_id, data),
      };
    },
  );
}
