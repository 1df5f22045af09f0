import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ContractEquipment, ContractProduct } from '#core/limits/contract-output.ts';
import { decodeColumns } from '#core/limits/matrix-columns.ts';
import { parseErrorBody } from '#client/api/api-error.ts';
import { handleHttpError } from '#client/api/http-error-handler.ts';
import { apiUrl } from '#client/api/http-client.ts';
import { getToken } from '#client/session/session-store.ts';
import { facilityPath } from '#client/shared/master-data/entity-api.ts';
import type { FacilityScope } from '#client/shared/master-data/entity-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import type { TMacColumns, TUncomputable } from '#core/schemas/mac-matrix.schemas.ts';
import { limitsKeys } from '#client/shared/query-keys.ts';
import { PairStore } from './pair-store.ts';

export interface MacMatrix {
  pairs: PairStore;
  products: ContractProduct[];
  equipment: ContractEquipment[];
  /** Products and equipment left out because their stored data cannot be computed, and why. */
  uncomputable: TUncomputable[];
}

export interface LoadProgress {
  /** Bytes of the answer received so far (as inflated). */
  bytes: number;
}

const ACTION = 'Loading the MAC matrix';

/**
 * GET {F}/mac-matrix?format=columns: the whole matrix in columns (about 90 bytes a pair, sent
 * gzipped as the server keeps it), read as it arrives with the bytes shown, then decoded into a
 * PairStore without a pair object. Errors go through the spec §8 handler like every other call.
 */
export async function loadMacMatrix(
  scope: FacilityScope,
  signal: AbortSignal,
  onProgress: (progress: LoadProgress) => void,
  productionId?: number,
): Promise<MacMatrix> {
  const token = getToken();
  const response = await fetch(
    apiUrl(`${facilityPath(scope)}/mac-matrix`, { productionId, format: 'columns' }),
    { headers: { Accept: 'application/json', ...(token ? { token } : {}) }, signal },
  );
  if (!response.ok) {
    handleHttpError(response.status, parseErrorBody(await response.text()), { action: ACTION });
  }
  const parts: string[] = [];
  let bytes = 0;
  let reported = 0;
  if (response.body) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      bytes += value.length;
      const now = performance.now();
      if (now - reported > 150) {
        reported = now;
        onProgress({ bytes });
      }
    }
  } else {
    parts.push(await response.text());
  }
  const answer = JSON.parse(parts.join('')) as TMacColumns;
  return {
    pairs: PairStore.fromColumns(decodeColumns(answer)),
    products: answer.products as unknown as ContractProduct[],
    equipment: answer.equipment as unknown as ContractEquipment[],
    uncomputable: answer.uncomputable,
  };
}

/**
 * The MAC matrix of the facility or one production, and how much has arrived while it loads;
 * nothing is fetched until `enabled` (a view that lists it is shown).
 */
export function useMacMatrix(productionId?: number, enabled = true) {
  const scope = useFacilityScope();
  const [progress, setProgress] = useState<LoadProgress | null>(null);
  const matrix = useQuery({
    queryKey: limitsKeys.macMatrixOf(scope.facilityId, productionId),
    queryFn: ({ signal }) => loadMacMatrix(scope, signal, setProgress, productionId),
    enabled,
    // Limits follow master data: refetched whenever it changes (see shared/query-keys.ts), and
    // again on return to the page so another user's change shows too.
    staleTime: 0,
    // A large matrix is big: let it go soon after the page is left.
    gcTime: 60_000,
    structuralSharing: false,
  });
  return { matrix, progress };
}
