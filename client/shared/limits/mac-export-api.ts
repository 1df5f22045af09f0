import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { parseErrorBody } from '#client/api/api-error.ts';
import { handleHttpError } from '#client/api/http-error-handler.ts';
import { apiUrl, saveBlob } from '#client/api/http-client.ts';
import { getToken } from '#client/session/session-store.ts';
import { facilityPath } from '../master-data/entity-api.ts';
import type { FacilityScope } from '../master-data/entity-api.ts';
import { useFacilityScope } from '../master-data/use-facility-scope.ts';
import { fileNameOf } from '../master-data/workbook-problems.ts';

export type ProductionPdf = 'mac' | 'nitrosamine';

/**
 * A download read as it arrives, so the page can show how much has come (a 1,000-product
 * workbook is tens of megabytes and takes a while). Errors go through the spec §8 handler.
 */
export async function download(
  path: string,
  query: Record<string, number | undefined>,
  action: string,
  fallbackName: string,
  onBytes: (bytes: number) => void,
): Promise<string> {
  const token = getToken();
  const response = await fetch(apiUrl(path, query), {
    headers: { Accept: '*/*', ...(token ? { token } : {}) },
  });
  if (!response.ok) {
    handleHttpError(response.status, parseErrorBody(await response.text()), { action });
  }
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      bytes += value.length;
      onBytes(bytes);
    }
  }
  const type = response.headers.get('content-type') ?? 'application/octet-stream';
  const disposition = response.headers.get('content-disposition');
  const name = disposition ? fileNameOf(disposition) : fallbackName;
  saveBlob(new Blob(chunks, { type }), name);
  return name;
}

export function exportMacMatrix(
  scope: FacilityScope,
  productionId: number | undefined,
  onBytes: (bytes: number) => void,
): Promise<string> {
  return download(
    `${facilityPath(scope)}/mac-matrix/export`,
    { productionId },
    'Exporting the MAC matrix',
    'MAC Matrix.xlsx',
    onBytes,
  );
}

export function downloadProductionPdf(
  scope: FacilityScope,
  productionId: number,
  kind: ProductionPdf,
): Promise<string> {
  const suffix = kind === 'nitrosamine' ? '/nitrosamine' : '';
  return download(
    `${facilityPath(scope)}/macMatrix/production/${productionId}${suffix}`,
    {},
    'Downloading the production PDF',
    'MAC Matrix.pdf',
    () => undefined,
  );
}

/** "Export to Excel": the workbook of the current filters, and the bytes received so far. */
export function useMacExport() {
  const scope = useFacilityScope();
  const [bytes, setBytes] = useState(0);
  const mutation = useMutation({
    mutationFn: (productionId: number | undefined) => {
      setBytes(0);
      return exportMacMatrix(scope, productionId, setBytes);
    },
  });
  return { mutation, bytes };
}

export function useProductionPdf() {
  const scope = useFacilityScope();
  return useMutation({
    mutationFn: ({ productionId, kind }: { productionId: number; kind: ProductionPdf }) =>
      downloadProductionPdf(scope, productionId, kind),
  });
}
