import { AppError } from '#core/errors/errors.ts';
import { ZLastAuditReportQuery } from '#core/schemas/reports.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf, sessionOf } from '#server/http/session-guard.ts';
import { assertFacilityInScope, auditScope } from '../audit/audit-log.service.ts';
import { writeAudit } from '#server/db/audit-write.ts';
import { signatureKey } from '#server/records/signature-binding.ts';
import { AUDIT_DOMAIN, reportPdf } from './reports.service.ts';
import { sendFile } from './reports.routes.ts';

/**
 * GET audit_logs/last_report (spec §3 "GET the audit-log report", §7 audit_logs): plan-level
 * like the other audit_logs calls, so its scope is theirs: the facilities where the caller
 * holds AuditLog Get (or the one `currentFacilityId` names, which must be one of them).
 */
export function registerAuditLogReportRoutes({ app, db, config, permitPlan }: AppContext): void {
  const r = typed(app);
  r.get(
    '/api/v2/audit_logs/last_report',
    {
      preHandler: permitPlan('AuditLog', 'Get'),
      schema: {
        tags: ['audit'],
        summary: 'The latest audit-log report as a PDF',
        description:
          'The PDF of the latest completed `audit-log` report (POST {F}/reports/generate_report) of the facilities where the caller holds AuditLog Get, or of `currentFacilityId`: the controlled document as its record stands now (signatures, DRAFT until approved). 404 NotFoundError when there is none. Each download writes an audit row. Needs AuditLog Get.',
        querystring: ZLastAuditReportQuery,
        produces: ['application/pdf'],
      },
    },
    async (request, reply) => {
      const scope = await auditScope(db, sessionOf(request));
      const { currentFacilityId } = request.query;
      if (currentFacilityId !== undefined) assertFacilityInScope(scope, currentFacilityId);
      const facilityIds = currentFacilityId === undefined ? scope.facilityIds : [currentFacilityId];
      const [last] = await db.query<{ id: number; facility_id: number }>(
        `select id, facility_id from reports
          where kind = 'audit-log' and completed_at is not null and facility_id = any($1::int[])
          order by completed_at desc, id desc limit 1`,
        [facilityIds],
      );
      if (!last) throw new AppError('NotFoundError', 'No audit-log report has been generated yet');
      const { file, row } = await reportPdf(
        db,
        await signatureKey(config, (message) => app.log.warn(message)),
        last.facility_id,
        last.id,
        'audit-log',
      );
      await db.transaction((tx) =>
        writeAudit(tx, actorOf(request), {
          planId: scope.planId,
          facilityId: last.facility_id,
          domain: AUDIT_DOMAIN,
          action: 'Export',
          entityId: row.id,
          newValues: { number: row.number, format: 'pdf' },
        }),
      );
      return sendFile(reply, 'pdf', `${row.number} ${row.title}.pdf`, file);
    },
  );
}
