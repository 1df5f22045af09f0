import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { customReportsDef } from '#core/entities/defs/custom-reports.def.ts';
import type {
  ReportFilter,
  TReportDataPage,
  TReportInfo,
} from '#core/schemas/custom-reports.schemas.ts';
import { parseErrorBody } from '#client/api/api-error.ts';
import { apiRequest, apiUrl } from '#client/api/http-client.ts';
import { handleHttpError } from '#client/api/http-error-handler.ts';
import { getToken } from '#client/session/session-store.ts';
import {
  facilityPath,
  listEntities,
  type EntityRecord,
} from '#client/shared/master-data/entity-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { fileNameOf } from '#client/shared/master-data/workbook-problems.ts';

/** The calls of server/modules/custom-reports; saving goes through the record calls (entity-api). */

export interface CustomReport extends EntityRecord {
  name: string;
  source: string;
  columns: { key: string }[];
  filters: ReportFilter[] | null;
  description: string | null;
}

export const customReportKeys = {
  all: (facilityId: number) => ['facility', facilityId, 'custom-reports'] as const,
  list: (facilityId: number) => ['facility', facilityId, 'custom-reports', 'list'] as const,
  info: (facilityId: number) => ['facility', facilityId, 'custom-reports', 'info'] as const,
  data: (facilityId: number, id: number, pageNumber: number, perPage: number, version: number) =>
    ['facility', facilityId, 'custom-reports', 'data', id, pageNumber, perPage, version] as const,
};

export function useReportInfo() {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: customReportKeys.info(scope.facilityId),
    queryFn: ({ signal }) =>
      apiRequest<TReportInfo>(`${facilityPath(scope)}/report-info`, {
        signal,
        action: 'Loading the report sources',
      }),
    staleTime: 5 * 60_000,
  });
}

export function useCustomReports() {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: customReportKeys.list(scope.facilityId),
    queryFn: async ({ signal }) =>
      (await listEntities(scope, customReportsDef, { pageNumber: 1, pageLimit: 500 }, signal))
        .data as CustomReport[],
  });
}

export function useReportData(report: CustomReport, pageNumber: number, perPage: number) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: customReportKeys.data(
      scope.facilityId,
      report.id,
      pageNumber,
      perPage,
      report.version,
    ),
    queryFn: ({ signal }) =>
      apiRequest<TReportDataPage>(`${facilityPath(scope)}/${report.id}/report-data/data`, {
        query: { pageNumber, perPage },
        signal,
        action: 'Loading the report data',
      }),
    placeholderData: keepPreviousData,
  });
}

/** GET {id}/report-data/download: the workbook and the name the server gave it. */
export async function downloadCustomReport(
  scope: { planId: number; facilityId: number },
  id: number,
): Promise<{ blob: Blob; fileName: string }> {
  const token = getToken();
  const response = await fetch(apiUrl(`${facilityPath(scope)}/${id}/report-data/download`), {
    headers: { Accept: '*/*', ...(token ? { token } : {}) },
  });
  const blob = await response.blob();
  if (!response.ok) {
    handleHttpError(response.status, parseErrorBody(await blob.text()), {
      action: 'Downloading the report',
    });
  }
  return { blob, fileName: fileNameOf(response.headers.get('content-disposition')) };
}
