import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, validationError } from '#core/errors/errors.ts';
import { isAllowed } from '#core/permissions/permission-map.ts';
import { formatNumber } from '#core/units/format-number.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { ZId } from '#core/schemas/common.schemas.ts';
import {
  CUSTOM_REPORT_SOURCES,
  SOURCE_DECLARATIONS,
  ZReportConfig,
  ZReportDataPage,
  ZReportDataQuery,
  ZReportInfo,
  columnInfo,
  sourceDeclaration,
  type SourceDeclaration,
  type TReportSourceInfo,
} from '#core/schemas/custom-reports.schemas.ts';
import type { PermissionMap } from '#core/permissions/permission-map.ts';
import { attachment, fileTimestamp } from '#server/http/download.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf, facilityPermissions, sessionOf } from '#server/http/session-guard.ts';
import { writeAudit } from '#server/db/audit-write.ts';
import { customReportXlsx } from './custom-report-xlsx.ts';
import { readReportRows, resolveReport, sourceOfReport } from './custom-reports.service.ts';
import { idOfPath } from '#server/http/permission-guards.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';
const tags = ['Custom reports'];
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** A download is one sheet for a person to read; more rows than this want a narrower filter. */
export const MAX_DOWNLOAD_ROWS = 100_000;
const ZReportParams = ZFacilityParams.extend({ id: ZId });

const scopeOfReport = (params: { plan: number; facility: number }) => ({
  planId: params.plan,
  facilityId: params.facility,
});

function sourceInfo(source: SourceDeclaration, permissions: PermissionMap): TReportSourceInfo {
  return {
    key: source.key,
    label: source.label,
    description: source.description,
    resource: source.resource,
    action: source.action,
    allowed: isAllowed(permissions, source.resource, source.action),
    columns: source.columns.map(columnInfo),
  };
}

/**
 * Custom reports (spec §7): the sources they draw on, and the data of a saved one. The saved
 * reports themselves are the declared record `report-data` (core/entities/defs/custom-reports.def.ts).
 */
export function registerCustomReportRoutes({ app, db, permit, permitNamed }: AppContext): void {
  const r = typed(app);
  const get = permit('ReportDocument', 'Get');
  const permissionsOf = (request: FastifyRequest, params: { plan: number; facility: number }) =>
    facilityPermissions(sessionOf(request), params.plan, params.facility);

  /**
   * A saved report's data needs its source's own permission besides ReportDocument Get (403
   * else): the guard loads the report of the path (404 for one of another facility) to know it.
   */
  const readable = [
    get,
    permitNamed(async (request, { facility }) => {
      // A report that is not there, or has no such source, is the handler's to answer (404, or
      // refused as unreadable), after the facility's tier gate, which runs after this guard.
      const source = await sourceOfReport(db, facility, idOfPath(request, 'id'));
      return source ? [source.resource, source.action] : null;
    }),
  ];

  r.get(
    `${F}/report-info`,
    {
      preHandler: get,
      schema: {
        tags,
        summary: 'The sources a custom report can draw on',
        description:
          'Each source with its columns (key, label, type, unit, options of an enum) and the filter operators each column takes, and whether the caller holds the source’s own permission (pairs: RiskCalculation Get; products: Product Get; equipment: Equipment Get; sampleResults: QualificationTask Get; auditEntries: AuditLog Get). Needs ReportDocument Get.',
        params: ZFacilityParams,
        response: { 200: ZReportInfo },
      },
    },
    async (request) => {
      const permissions = permissionsOf(request, request.params);
      return { sources: SOURCE_DECLARATIONS.map((s) => sourceInfo(s, permissions)) };
    },
  );

  r.get(
    `${F}/report-config/:source/data`,
    {
      preHandler: get,
      schema: {
        tags,
        summary: 'One source’s configuration: its columns and their filter operators',
        description: `The source is one of ${CUSTOM_REPORT_SOURCES.join(', ')}; another answers 404 NotFoundError. Needs ReportDocument Get.`,
        params: ZFacilityParams.extend({ source: z.string().max(64) }),
        response: { 200: ZReportConfig },
      },
    },
    async (request) => {
      const source = sourceDeclaration(request.params.source);
      if (!source) {
        throw new AppError('NotFoundError', `No report source '${request.params.source}'`);
      }
      return { config: sourceInfo(source, permissionsOf(request, request.params)) };
    },
  );

  r.get(
    `${F}/:id/report-data/data`,
    {
      preHandler: readable,
      schema: {
        tags,
        summary: 'One page of a saved custom report’s data',
        description:
          'The rows of the report’s source that pass its filters, with the columns it chose in its order, `perPage` at a time (default 10, spec §9) with the total that match. Table sources are filtered in SQL; MAC matrix pairs are computed by the limits engine and filtered as they are computed. Needs ReportDocument Get and the source’s own permission (403 NotAllowed otherwise); 404 for a report of another facility.',
        params: ZReportParams,
        querystring: ZReportDataQuery,
        response: { 200: ZReportDataPage },
      },
    },
    async (request) => {
      const report = await resolveReport(db, request.params.facility, request.params.id);
      const { pageNumber, perPage } = request.query;
      const { total, rows } = await readReportRows(db, scopeOfReport(request.params), report, {
        offset: (pageNumber - 1) * perPage,
        limit: perPage,
      });
      return { columns: report.columns, data: rows, total, pageNumber, perPage };
    },
  );

  r.get(
    `${F}/:id/report-data/download`,
    {
      preHandler: readable,
      schema: {
        tags,
        summary: 'A saved custom report’s data as xlsx',
        description: `Every row that passes the report’s filters on a sheet "Report" (headers with units), and a sheet "About" (report, source, filters, who exported it and when). The file is named by the report's type (its source) and a timestamp: \`products 2026-11-28 10-15-00.xlsx\`. More than ${formatNumber(MAX_DOWNLOAD_ROWS)} matching rows answer 422 on filters. Each download writes an audit row (CustomReport Export). Needs ReportDocument Get and the source’s own permission.`,
        params: ZReportParams,
        produces: [XLSX],
      },
    },
    async (request, reply) => {
      const report = await resolveReport(db, request.params.facility, request.params.id);
      const { total, rows } = await readReportRows(db, scopeOfReport(request.params), report, {
        offset: 0,
        limit: MAX_DOWNLOAD_ROWS,
      });
      if (total > MAX_DOWNLOAD_ROWS) {
        throw validationError([
          {
            property: 'filters',
            constraints: {
              custom: `The report matches ${total} rows; a download holds at most ${MAX_DOWNLOAD_ROWS}. Add a filter.`,
            },
          },
        ]);
      }
      const actor = actorOf(request);
      const exportedAt = new Date();
      const bytes = await customReportXlsx(report, rows, {
        exportedBy: actor.userName ?? '',
        exportedAt,
        total,
      });
      const name = `${report.source.key} ${fileTimestamp(exportedAt)}.xlsx`;
      await db.transaction((tx) =>
        writeAudit(tx, actor, {
          planId: request.params.plan,
          facilityId: request.params.facility,
          domain: 'CustomReport',
          action: 'Export',
          entityId: report.id,
          newValues: { fileName: name, rows: total },
        }),
      );
      return reply
        .header('content-type', XLSX)
        .header('content-disposition', attachment(name))
        .header('cache-control', 'no-store')
        .send(bytes);
    },
  );
}
