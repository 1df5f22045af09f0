import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath } from '#client/shared/master-data/entity-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { limitsKeys } from '#client/shared/query-keys.ts';
import type { PairExplanationAnswer } from './limit-reports-api.ts';

/**
 * GET {F}/mac-matrix/explain: the derivation of one pair from its inputs (each input with its
 * unit and where it came from). Under the limits key, so a master-data change refetches it.
 */
export function usePairDerivation(previous: string, next: string, productionId?: number) {
  const scope = useFacilityScope();
  return useQuery({
    // Under a production filter the pair is the production's own (its equipment only).
    queryKey: limitsKeys.explain(scope.facilityId, previous, next, productionId),
    queryFn: ({ signal }) =>
      apiRequest<PairExplanationAnswer>(`${facilityPath(scope)}/mac-matrix/explain`, {
        query: { previous, next, ...(productionId === undefined ? {} : { productionId }) },
        signal,
        action: 'Loading the derivation',
      }),
    select: (answer) => answer.explanation,
  });
}
