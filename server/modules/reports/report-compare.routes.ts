import { ZCompareResponse } from '#core/schemas/report-compare.schemas.ts';
import { ZReportParams } from '#core/schemas/reports.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { compareReport } from './report-compare.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';

/** `GET {F}/reports/{id}/compare`: a stored report against the facility's data today. */
export function registerReportCompareRoute({ app, db, permit }: AppContext): void {
  typed(app).get(
    `${F}/reports/:id/compare`,
    {
      preHandler: permit('ReportDocument', 'Get'),
      schema: {
        tags: ['Reports'],
        summary: 'Compare a stored report with today',
        description:
          'Computes the report’s data now from its stored parameters and lists what changed row by row: for a limits report each pair whose governing MACO moved (old, new, % change), for other kinds every row by its key with the fields that differ. Lists the limits snapshots stored between the report’s moment and now whose limits moved, with the approval (change assessment or limit policy) behind each, and the edits of GMP data since (direct, or applied by a change assessment named in their reason; newest first, at most 200). Stores nothing. 404 NotFoundError for an unknown report; 409 TransactionLocked while it is being generated. Needs ReportDocument Get.',
        params: ZReportParams,
        response: { 200: ZCompareResponse },
      },
    },
    async (request) => compareReport(db, request.params.facility, request.params.id),
  );
}
