import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ZAnnualSummaryBody } from '#core/schemas/annual-summary.schemas.ts';
import type {
  TReport,
  TReportList,
  ZGenerateReportResponse,
} from '#core/schemas/reports.schemas.ts';
import { parseErrorBody } from '#client/api/api-error.ts';
import { apiRequest, apiUrl, saveBlob } from '#client/api/http-client.ts';
import { handleHttpError } from '#client/api/http-error-handler.ts';
import { getToken } from '#client/session/session-store.ts';
import { facilityPath, type FacilityScope } from '#client/shared/master-data/entity-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { fileNameOf } from '#client/shared/master-data/workbook-problems.ts';
import { reportKeys } from '#client/shared/query-keys.ts';
import type { ReportPage } from '#client/shared/reports/reports-api.ts';

/** The calls `annualSummary` of spec §7: POST (start, end, customSections); GET list; GET {id}. */

export function useAnnualSummaries(page: ReportPage) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: reportKeys.annualSummaries(scope.facilityId, page),
    queryFn: ({ signal }) =>
      apiRequest<TReportList>(`${facilityPath(scope)}/annualSummary`, {
        query: { ...page },
        signal,
        action: 'Loading the annual summaries',
      }),
    placeholderData: keepPreviousData,
    // While one is being generated the list follows it.
    refetchInterval: (query) =>
      query.state.data?.reports.some((r) => r.completedAt === null && r.error === null)
        ? 1000
        : false,
  });
}

export function generateAnnualSummary(
  scope: FacilityScope,
  body: z.input<typeof ZAnnualSummaryBody>,
): Promise<z.infer<typeof ZGenerateReportResponse>> {
  return apiRequest(`${facilityPath(scope)}/annualSummary`, {
    method: 'POST',
    body,
    action: 'Generating the annual summary',
  });
}

/** GET {F}/annualSummary/{id}: the PDF, saved under the name the server gives it. */
export async function downloadAnnualSummary(
  scope: FacilityScope,
  report: Pick<TReport, 'id' | 'number'>,
): Promise<string> {
  const token = getToken();
  const response = await fetch(apiUrl(`${facilityPath(scope)}/annualSummary/${report.id}`), {
    headers: { Accept: '*/*', ...(token ? { token } : {}) },
  });
  const blob = await response.blob();
  if (!response.ok)
    handleHttpError(response.status, parseErrorBody(await blob.text()), {
      action: `Downloading ${report.number}`,
    });
  const disposition = response.headers.get('content-disposition');
  const name = disposition ? fileNameOf(disposition) : `${report.number}.pdf`;
  saveBlob(blob, name);
  return name;
}
