import { parseErrorBody } from '#client/api/api-error.ts';
import { apiUrl } from '#client/api/http-client.ts';
import { handleHttpError } from '#client/api/http-error-handler.ts';
import { getToken } from '#client/session/session-store.ts';
import { facilityPath } from '#client/shared/master-data/entity-api.ts';
import type { FacilityScope } from '#client/shared/master-data/entity-api.ts';
import { fileNameOf } from '#client/shared/master-data/workbook-problems.ts';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** POST {F}/master's answer: every row was applied. */
export interface ImportReport {
  created: number;
  updated: number;
  unchanged: number;
  rows: number;
}

function tokenHeader(): Record<string, string> {
  const token = getToken();
  return token ? { token } : {};
}

/** GET {F}/master: the workbook and its name. */
export async function exportWorkbook(
  scope: FacilityScope,
): Promise<{ blob: Blob; fileName: string }> {
  const response = await fetch(apiUrl(`${facilityPath(scope)}/master`), {
    headers: { Accept: '*/*', ...tokenHeader() },
  });
  const blob = await response.blob();
  if (!response.ok) {
    handleHttpError(response.status, parseErrorBody(await blob.text()), {
      action: 'Exporting master data',
    });
  }
  return { blob, fileName: fileNameOf(response.headers.get('content-disposition')) };
}

/**
 * POST {F}/master with the file itself as the body: the server reads the raw workbook, so it is
 * not wrapped in multipart form data. A refusal rejects with the ApiError whose `otherErrors`
 * holds the problems (see `problemsOf`).
 */
export async function importWorkbook(scope: FacilityScope, file: File): Promise<ImportReport> {
  const response = await fetch(apiUrl(`${facilityPath(scope)}/master`, { fileName: file.name }), {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': XLSX_TYPE, ...tokenHeader() },
    body: file,
  });
  const text = await response.text();
  if (!response.ok) {
    handleHttpError(response.status, parseErrorBody(text), { action: 'Importing master data' });
  }
  return JSON.parse(text) as ImportReport;
}
