import { useQuery } from '@tanstack/react-query';
import type { ContractPair } from '#core/limits/contract-output.ts';
import type { TMacGrid, TMacPairsPage } from '#core/schemas/mac-matrix.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath } from '#client/shared/master-data/entity-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { limitsKeys } from '#client/shared/query-keys.ts';
import { MacGridData } from './mac-grid.ts';

const production = (productionId: number | undefined) =>
  productionId === undefined ? {} : { productionId };

/** GET {F}/mac-matrix/grid: the whole matrix in columns, for the product × product grid. */
export function useMacGrid(productionId?: number) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: limitsKeys.macGrid(scope.facilityId, productionId),
    queryFn: async ({ signal }) =>
      new MacGridData(
        await apiRequest<TMacGrid>(`${facilityPath(scope)}/mac-matrix/grid`, {
          query: production(productionId),
          signal,
          action: 'Loading the MAC matrix grid',
        }),
      ),
    // As the matrix: limits follow master data, and a large grid is let go soon after.
    staleTime: 0,
    gcTime: 60_000,
    structuralSharing: false,
  });
}

export interface GridCell {
  previous: string;
  next: string;
}

/**
 * One pair in full (shared equipment, every criterion, swab and rinse limits) for the cell the
 * user opened: GET {F}/mac-matrix/pairs by both names.
 */
export function useGridPair(cell: GridCell | null, productionId?: number) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: limitsKeys.pair(
      scope.facilityId,
      cell?.previous ?? '',
      cell?.next ?? '',
      productionId,
    ),
    enabled: cell !== null,
    queryFn: async ({ signal }) => {
      const page = await apiRequest<TMacPairsPage>(`${facilityPath(scope)}/mac-matrix/pairs`, {
        query: {
          previous: cell?.previous,
          next: cell?.next,
          pageLimit: 1,
          ...production(productionId),
        },
        signal,
        action: 'Loading the pair',
      });
      return (page.data[0] ?? null) as ContractPair | null;
    },
  });
}
