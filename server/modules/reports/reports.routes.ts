import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import {
  REPORT_KIND_INFO,
  REPORT_KINDS,
  ZGenerateReportBody,
  ZGenerateReportResponse,
  ZRegenerateResponse,
  ZReportDocumentParams,
  ZReportFileParams,
  ZReportList,
  ZReportListQuery,
  ZReportParams,
  ZReportResponse,
  ZReportTags,
  type TReportFormat,
  type TReportKind,
} from '#core/schemas/reports.schemas.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '#server/db/db.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { attachment } from '#server/http/download.ts';
import { actorOf } from '#server/http/session-guard.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import { registerReportCompareRoute } from './report-compare.routes.ts';
import { registerAnnualSummaryRoutes } from './annual-summary.routes.ts';
import {
  AUDIT_DOMAIN,
  getReport,
  listReports,
  regenerateReport,
  registerReports,
  reportPdf,
  reportXlsx,
  startReport,
} from './reports.service.ts';
import { signatureKey } from '#server/records/signature-binding.ts';
import { registerAuditLogReportRoutes } from './audit-log-report.routes.ts';
import { registerEquipmentPdfRoutes } from './equipment-pdf.routes.ts';
import { REPORT_KIND_DEFS } from './report-kinds.ts';
import type { StoredReportFile } from './report-file-store.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';
const tags = ['Reports'];
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Each download of a controlled report is recorded, as every GMP export is. */
export function auditDownload(
  db: Db,
  actor: Actor,
  scope: { plan: number; facility: number },
  reportId: number,
  newValues: Record<string, unknown>,
) {
  return db.transaction((tx) =>
    writeAudit(tx, actor, {
      planId: scope.plan,
      facilityId: scope.facility,
      domain: AUDIT_DOMAIN,
      action: 'Export',
      entityId: reportId,
      newValues,
    }),
  );
}

/** A stored file, sent as it is read, a piece at a time (report-file-store.ts). */
export function sendFile(
  reply: FastifyReply,
  format: TReportFormat,
  name: string,
  file: StoredReportFile,
) {
  return reply
    .header('content-type', format === 'pdf' ? 'application/pdf' : XLSX)
    .header('content-disposition', attachment(name))
    .header('cache-control', 'no-store')
    .header('content-length', file.bytes)
    .send(file.body);
}

/** Reports as controlled documents (spec §3 "Report kinds", §7 "Assessments and reports"). */
export function registerReportRoutes(context: AppContext): void {
  const { app, db, config, permit, permitNamed } = context;
  const r = typed(app);
  registerReports();
  registerReportCompareRoute(context);
  registerEquipmentPdfRoutes(context);
  registerAuditLogReportRoutes(context);
  registerAnnualSummaryRoutes({ app, db, config, permit });
  const get = permit('ReportDocument', 'Get');
  // A kind whose content is reachable otherwise only with a permission of its own (the audit
  // trail, a record's own read) asks for it too, to generate the report and to read its files:
  // a guard after ReportDocument's, with the kind the path or the body names.
  const permitKind = (kindOf: (request: FastifyRequest) => unknown) =>
    permitNamed((request) => {
      const kind = REPORT_KINDS.find((known) => known === kindOf(request));
      const needed = kind ? REPORT_KIND_DEFS[kind].permission : undefined;
      return needed ? [needed.resource, needed.action] : null;
    });
  const kindOfPath = permitKind((request) => (request.params as { type?: unknown }).type);

  r.post(
    `${F}/reports/generate_report`,
    {
      preHandler: [
        permit('ReportDocument', 'Generate'),
        permitKind((request) => (request.body as { kind?: unknown } | undefined)?.kind),
      ],
      schema: {
        tags,
        summary: 'Generate a report as a background job',
        description: `Stores the report (numbered RPT-0001 on in the facility) with its kind and parameters, starts its job in the same transaction and answers at once with the report, its id and the job id (poll \`GET jobs/{jobId}\` or \`GET reports/{id}\`). The job reads the data as of that moment (the facility's records and approved policies), stores it with the SHA-256 of its canonical JSON and the limits snapshot in force, renders its files (kinds: ${REPORT_KINDS.join(', ')}) and stores each with its SHA-256; the report is then version 1 Being Built of the controlled document type ReportDocument, to be submitted, reviewed and approved with signatures. Needs ReportDocument Generate.`,
        params: ZFacilityParams,
        body: ZGenerateReportBody,
        response: { 200: ZGenerateReportResponse },
      },
    },
    async (request) => {
      const { report, jobId } = await startReport(
        db,
        actorOf(request),
        { planId: request.params.plan, facilityId: request.params.facility },
        request.body,
      );
      return { report, reportId: report.id, jobId };
    },
  );

  r.get(
    `${F}/reports`,
    {
      preHandler: get,
      schema: {
        tags,
        summary: 'The stored reports of the facility, newest first',
        description:
          'Paged by `pageNumber` and `pageLimit`, optionally of one `kind`; each with its status, signature state and version number, its job progress, the data hash and the files as generated with their SHA-256. Needs ReportDocument Get.',
        params: ZFacilityParams,
        querystring: ZReportListQuery,
        response: { 200: ZReportList },
      },
    },
    async (request) => listReports(db, request.params.facility, request.query),
  );

  r.get(
    `${F}/get-report-tags`,
    {
      preHandler: get,
      schema: {
        tags,
        summary: 'The report kinds, their files and tags',
        description:
          'Each kind that `reports/generate_report` accepts, with its label, its formats (pdf, xlsx) and tags. Needs ReportDocument Get.',
        params: ZFacilityParams,
        response: { 200: ZReportTags },
      },
    },
    async () => ({
      tags: REPORT_KINDS.map((kind) => ({
        kind,
        label: REPORT_KIND_INFO[kind].label,
        formats: [...REPORT_KIND_INFO[kind].formats],
        tags: [...REPORT_KIND_INFO[kind].tags],
      })),
    }),
  );

  r.get(
    `${F}/reports/:id`,
    {
      preHandler: get,
      schema: {
        tags,
        summary: 'One stored report',
        description: '404 NotFoundError for an unknown report. Needs ReportDocument Get.',
        params: ZReportParams,
        response: { 200: ZReportResponse },
      },
    },
    async (request) => ({
      report: await getReport(db, request.params.facility, request.params.id),
    }),
  );

  r.get(
    `${F}/reports/:id/regenerate`,
    {
      preHandler: get,
      schema: {
        tags,
        summary: 'Read a stored report’s data again as of its date',
        description:
          'Computes the report’s data again from its stored parameters as the facility’s records and approved policies were at its date, and answers its SHA-256 next to the stored one (`same`: the same numbers) and the limits snapshot in force then. Stores nothing. 409 TransactionLocked while the report is being generated. Needs ReportDocument Get.',
        params: ZReportParams,
        response: { 200: ZRegenerateResponse },
      },
    },
    async (request) => regenerateReport(db, request.params.facility, request.params.id),
  );

  const pdfHandler = async (
    request: FastifyRequest & { params: { plan: number; facility: number; id: number } },
    kind: TReportKind,
    reply: FastifyReply,
  ) => {
    const actor = actorOf(request);
    const key = await signatureKey(config, (message) => app.log.warn(message));
    const { file, row } = await reportPdf(
      db,
      key,
      request.params.facility,
      request.params.id,
      kind,
    );
    await auditDownload(db, actor, request.params, row.id, { number: row.number, format: 'pdf' });
    return sendFile(reply, 'pdf', `${row.number} ${row.title}.pdf`, file);
  };
  const pdfDescription =
    'The report as a controlled document: on each page the facility, title, report number and version and status, who generated it and when (facility time zone), "Page x of y" and the data hash; a DRAFT watermark until approved; a signature page; a last page with the full hashes, the limits snapshot and the parameters to regenerate it. Rendered once per state of the record (its signatures) and stored with its SHA-256. 404 NotFoundError for an unknown report or one of another kind; 409 TransactionLocked while it is being generated. Each download writes an audit row. Needs ReportDocument Get.';

  r.get(
    `${F}/reports/:type/:id/pdf`,
    {
      preHandler: [get, kindOfPath],
      schema: {
        tags,
        summary: 'A stored report as a PDF',
        description: pdfDescription,
        params: ZReportFileParams,
        produces: ['application/pdf'],
      },
    },
    (request, reply) => pdfHandler(request, request.params.type, reply),
  );

  r.get(
    `${F}/reportDocument/:t/pdf/:id`,
    {
      preHandler: [get, permitKind((request) => (request.params as { t?: unknown }).t)],
      schema: {
        tags,
        summary: 'A stored report as a PDF (the report document path)',
        description: pdfDescription,
        params: ZReportDocumentParams,
        produces: ['application/pdf'],
      },
    },
    (request, reply) => pdfHandler(request, request.params.t, reply),
  );

  r.get(
    `${F}/reports/:type/:id/xlsx`,
    {
      preHandler: [get, kindOfPath],
      schema: {
        tags,
        summary: 'A stored report as an xlsx workbook',
        description:
          'The workbook as the job generated it (its SHA-256 is in the report’s `files`). 404 NotFoundError for a kind without an xlsx file. Each download writes an audit row. Needs ReportDocument Get.',
        params: ZReportFileParams,
        produces: [XLSX],
      },
    },
    async (request, reply) => {
      const { facility, id, type } = request.params;
      const { file, row } = await reportXlsx(db, facility, id, type);
      await auditDownload(db, actorOf(request), request.params, row.id, {
        number: row.number,
        format: 'xlsx',
      });
      const name = REPORT_KIND_INFO[row.kind].xlsxName ?? `${row.number} ${row.title}.xlsx`;
      return sendFile(reply, 'xlsx', name, file);
    },
  );
}
