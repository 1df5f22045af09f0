import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  REPORT_KIND_INFO,
  type TReport,
  type TReportFormat,
  type TReportList,
  type ZGenerateReportBody,
  type ZGenerateReportResponse,
  type ZReportResponse,
  type ZReportTags,
} from '#core/schemas/reports.schemas.ts';
import type { TCompareResponse } from '#core/schemas/report-compare.schemas.ts';
import { apiDownload, apiRequest, saveBlob } from '#client/api/http-client.ts';
import { facilityPath, type FacilityScope } from '../master-data/entity-api.ts';
import { useFacilityScope } from '../master-data/use-facility-scope.ts';
import { isReportPending } from './report-state.ts';
import { reportKeys } from '#client/shared/query-keys.ts';
import type { TListQuery } from '#core/schemas/common.schemas.ts';

/** The calls of server/modules/reports (spec §7 "Assessments and reports"). */

export type GenerateReportBody = z.input<typeof ZGenerateReportBody>;
export type ReportTags = z.infer<typeof ZReportTags>;

/** The page of a report list asked for. */
export type ReportPage = Pick<TListQuery, 'pageNumber' | 'pageLimit'>;

export function useReports(page: ReportPage) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: reportKeys.list(scope.facilityId, page),
    queryFn: ({ signal }) =>
      apiRequest<TReportList>(`${facilityPath(scope)}/reports`, {
        query: { ...page },
        signal,
        action: 'Loading the reports',
      }),
    placeholderData: keepPreviousData,
    // While a report is being generated (or retried) the list follows it.
    refetchInterval: (query) => (query.state.data?.reports.some(isReportPending) ? 1000 : false),
  });
}

export function useReportTags() {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: reportKeys.tags(scope.facilityId),
    queryFn: ({ signal }) =>
      apiRequest<ReportTags>(`${facilityPath(scope)}/get-report-tags`, {
        signal,
        action: 'Loading the report kinds',
      }),
  });
}

export function generateReport(
  scope: FacilityScope,
  body: GenerateReportBody,
): Promise<z.infer<typeof ZGenerateReportResponse>> {
  return apiRequest(`${facilityPath(scope)}/reports/generate_report`, {
    method: 'POST',
    body,
    action: 'Generating the report',
  });
}

export async function downloadReport(
  scope: FacilityScope,
  report: Pick<TReport, 'id' | 'kind' | 'number' | 'title'>,
  format: TReportFormat,
): Promise<void> {
  const blob = await apiDownload(
    `${facilityPath(scope)}/reports/${report.kind}/${report.id}/${format}`,
    { action: `Downloading ${report.number}` },
  );
  const named = format === 'xlsx' ? REPORT_KIND_INFO[report.kind].xlsxName : undefined;
  saveBlob(blob, named ?? `${report.number} ${report.title}.${format}`);
}

/** One stored report, followed while its job runs. */
export function useReport(id: number | null) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: reportKeys.one(scope.facilityId, id),
    enabled: id !== null,
    queryFn: ({ signal }) =>
      apiRequest<z.output<typeof ZReportResponse>>(`${facilityPath(scope)}/reports/${id}`, {
        signal,
        action: 'Loading the report',
      }),
    refetchInterval: (query) => {
      const report = query.state.data?.report;
      return report && report.completedAt === null && report.error === null ? 1000 : false;
    },
  });
}

/** `GET reports/{id}/compare`: the report against the facility's data today. */
export function useReportCompare(id: number, enabled: boolean) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: reportKeys.compare(scope.facilityId, id),
    enabled,
    queryFn: ({ signal }) =>
      apiRequest<TCompareResponse>(`${facilityPath(scope)}/reports/${id}/compare`, {
        signal,
        action: 'Comparing the report with today',
      }),
  });
}
