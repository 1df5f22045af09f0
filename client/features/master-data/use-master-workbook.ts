import { useMutation, useQueryClient } from '@tanstack/react-query';
import { saveBlob } from '#client/api/http-client.ts';
import { invalidateMasterData } from '#client/shared/query-keys.ts';
import { exportWorkbook, importWorkbook } from './master-workbook-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';

/** Export: fetch the workbook and hand it to the browser as a download. */
export function useExportWorkbook() {
  const scope = useFacilityScope();
  return useMutation({
    mutationFn: async () => {
      const { blob, fileName } = await exportWorkbook(scope);
      saveBlob(blob, fileName);
      return fileName;
    },
  });
}

/**
 * Import: all rows or none. A successful one can touch every entity of the facility, so all
 * master-data lists and the limits derived from them refetch.
 */
export function useImportWorkbook() {
  const scope = useFacilityScope();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => importWorkbook(scope, file),
    onSuccess: () => invalidateMasterData(client, scope.facilityId),
  });
}
