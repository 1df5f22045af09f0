import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type {
  ContractEquipment,
  ContractPair,
  ContractProduct,
} from '#core/limits/contract-output.ts';
import { parseErrorBody } from '#client/api/api-error.ts';
import { handleHttpError } from '#client/api/http-error-handler.ts';
import { apiUrl } from '#client/api/http-client.ts';
import { getToken } from '#client/session/session-store.ts';
import { facilityPath } from '#client/shared/master-data/entity-api.ts';
import type { FacilityScope } from '#client/shared/master-data/entity-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import type { TUncomputable } from '#core/schemas/mac-matrix.schemas.ts';
import { limitsKeys } from '#client/shared/query-keys.ts';
import { PairSplitter } from './pair-splitter.ts';
import { PairStore } from './pair-store.ts';

export interface MacMatrix {
  pairs: PairStore;
  products: ContractProduct[];
  equipment: ContractEquipment[];
  /** Products and equipment left out because their stored data cannot be computed, and why. */
  uncomputable: TUncomputable[];
}

export interface LoadProgress {
  pairs: number;
  bytes: number;
}

const ACTION = 'Loading the MAC matrix';

/**
 * GET {F}/mac-matrix, read as it streams: pairs go into a PairStore one at a time, so the
 * document (hundreds of megabytes for a 1,000-product facility) is never held as one string.
 * Errors go through the spec §8 handler like every other call.
 */
export async function loadMacMatrix(
  scope: FacilityScope,
  signal: AbortSignal,
  onProgress: (progress: LoadProgress) => void,
  productionId?: number,
): Promise<MacMatrix> {
  const token = getToken();
  const response = await fetch(apiUrl(`${facilityPath(scope)}/mac-matrix`, { productionId }), {
    headers: { Accept: 'application/json', ...(token ? { token } : {}) },
    signal,
  });
  if (!response.ok) {
    handleHttpError(response.status, parseErrorBody(await response.text()), { action: ACTION });
  }
  const store = new PairStore();
  const splitter = new PairSplitter();
  const onPair = (json: string) => store.add(JSON.parse(json) as ContractPair);
  let bytes = 0;
  let reported = 0;
  if (response.body) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      splitter.feed(value, onPair);
      const now = performance.now();
      if (now - reported > 150) {
        reported = now;
        onProgress({ pairs: store.length, bytes });
      }
    }
  } else {
    splitter.feed(await response.text(), onPair);
  }
  const rest = JSON.parse(splitter.finish()) as {
    products: ContractProduct[];
    equipment: ContractEquipment[];
    uncomputable?: TUncomputable[];
  };
  return {
    pairs: store,
    products: rest.products,
    equipment: rest.equipment,
    uncomputable: rest.uncomputable ?? [],
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
