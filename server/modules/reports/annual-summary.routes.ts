import { ZAnnualSummaryBody, ZAnnualSummaryParams } from '#core/schemas/annual-summary.schemas.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { ZListQuery } from '#core/schemas/common.schemas.ts';
import { ZGenerateReportResponse, ZReportList } from '#core/schemas/reports.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import { auditDownload, sendFile } from './reports.routes.ts';
import { signatureKey } from '#server/records/signature-binding.ts';
import { listReports, reportPdf, startReport } from './reports.service.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';
const tags = ['Reports'];

/** `annualSummary` (spec §7): POST (start, end, customSections); GET list; GET {id} download. */
export function registerAnnualSummaryRoutes({
  app,
  db,
  config,
  permit,
}: Pick<AppContext, 'app' | 'db' | 'config' | 'permit'>): void {
  const r = typed(app);
  const get = permit('ReportDocument', 'Get');

  r.post(
    `${F}/annualSummary`,
    {
      preHandler: permit('ReportDocument', 'Generate'),
      schema: {
        tags,
        summary: 'Generate an annual summary report as a background job',
        description:
          'The report kind `annual-summary` of `reports/generate_report`: `start` and `end` are dates (YYYY-MM-DD, whole UTC days, start not after end), `customSections` a list of `{ title, text }` printed after the computed sections in their order. Answers at once with the report and its job; the job reads, as the records stand at that moment, the changes approved in the period with their impact, the studies and their outcomes, the runs and results with failures and deviations, the trend and capability per equipment (the numbers of `verification/statistics`), the equipment overdue for periodic verification at the end of the period, the master-data changes of the audit trail per entity and action, and a conclusion. The report is signed as document type AnnualSummary. 422 DataValidationError naming each property. Needs ReportDocument Generate.',
        params: ZFacilityParams,
        body: ZAnnualSummaryBody,
        response: { 200: ZGenerateReportResponse },
      },
    },
    async (request) => {
      const { report, jobId } = await startReport(
        db,
        actorOf(request),
        { planId: request.params.plan, facilityId: request.params.facility },
        { kind: 'annual-summary', ...request.body },
      );
      return { report, reportId: report.id, jobId };
    },
  );

  r.get(
    `${F}/annualSummary`,
    {
      preHandler: get,
      schema: {
        tags,
        summary: 'The annual summary reports of the facility, newest first',
        description:
          'Paged by `pageNumber` and `pageLimit`; each with its period and sections (`parameters`), status, signature state, job progress and hashes. Needs ReportDocument Get.',
        params: ZFacilityParams,
        querystring: ZListQuery,
        response: { 200: ZReportList },
      },
    },
    async (request) =>
      listReports(db, request.params.facility, { ...request.query, kind: 'annual-summary' }),
  );

  r.get(
    `${F}/annualSummary/:id`,
    {
      preHandler: get,
      schema: {
        tags,
        summary: 'Download an annual summary as a controlled PDF',
        description:
          'The PDF as the record stands now (DRAFT until approved, its signatures on the signature page), named in Content-Disposition by its number and title. 404 NotFoundError for an unknown id or another kind of report; 409 TransactionLocked while it is being generated. Each download writes an audit row. Needs ReportDocument Get.',
        params: ZAnnualSummaryParams,
        produces: ['application/pdf'],
      },
    },
    async (request, reply) => {
      const { facility, id } = request.params;
      const { file, row } = await reportPdf(
        db,
        await signatureKey(config, (message) => app.log.warn(message)),
        facility,
        id,
        'annual-summary',
      );
      await auditDownload(db, actorOf(request), request.params, row.id, {
        number: row.number,
        format: 'pdf',
      });
      return sendFile(reply, 'pdf', `${row.number} ${row.title}.pdf`, file);
    },
  );
}
