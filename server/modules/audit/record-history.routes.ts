import { actionOf, type EntityDef } from '#core/entities/entity.ts';
import { ZAuditLogPage, ZRecordHistoryQuery } from '#core/schemas/audit.schemas.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { ZId } from '#core/schemas/common.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { pageOf, pageWindow } from '#server/db/paging.ts';
import { countAuditRows, listAuditRows } from './audit-log.service.ts';
import { auditNames } from './audit-names.ts';
import { recordHistoryWhere } from './record-history.ts';

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
