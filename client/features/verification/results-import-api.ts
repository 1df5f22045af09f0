import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TResultsImportResponse } from '#core/schemas/results-import.schemas.ts';
import { parseErrorBody } from '#client/api/api-error.ts';
import { apiUrl } from '#client/api/http-client.ts';
import { handleHttpError } from '#client/api/http-error-handler.ts';
import { getToken } from '#client/session/session-store.ts';
import { facilityPath, type FacilityScope } from '#client/shared/master-data/entity-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { invalidateVerification } from '#client/shared/query-keys.ts';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The content type the server reads the file by: a workbook, else CSV text. */
const typeOf = (file: File) => (/\.xlsx$/i.test(file.name) ? XLSX_TYPE : 'text/csv');

/**
 * POST {F}/results/import with the file itself as the body (as the master-data import sends its
 * workbook). A refused commit rejects with the ApiError whose `otherErrors` lists the problems.
 */
export async function importResultsFile(
  scope: FacilityScope,
  file: File,
  options: { mappingId: number; dryRun: boolean },
): Promise<TResultsImportResponse> {
  const token = getToken();
  const response = await fetch(
    apiUrl(`${facilityPath(scope)}/results/import`, {
      mappingId: options.mappingId,
      dryRun: options.dryRun,
      fileName: file.name,
    }),
    {
      method: 'POST',
      headers: {
        Accept: 'application/json',
        'Content-Type': typeOf(file),
        ...(token ? { token } : {}),
      },
      body: file,
    },
  );
  const text = await response.text();
  if (!response.ok)
    handleHttpError(response.status, parseErrorBody(text), {
      action: options.dryRun ? 'Checking the results file' : 'Importing the results',
    });
  return JSON.parse(text) as TResultsImportResponse;
}

/** The preview (dry run) and the import of a file; an import refreshes runs and statistics. */
export function useResultsImport() {
  const scope = useFacilityScope();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (variables: { file: File; mappingId: number; dryRun: boolean }) =>
      importResultsFile(scope, variables.file, variables),
    onSuccess: (answer) => {
      if (!answer.dryRun) void invalidateVerification(client, scope.facilityId);
    },
  });
}
