import { useQuery } from '@tanstack/react-query';
import type { LimitsInput } from '#core/limits/model.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath } from '../master-data/entity-api.ts';
import { useFacilityScope } from '../master-data/use-facility-scope.ts';
import { limitsKeys } from '../query-keys.ts';
import type { z } from 'zod';
import type { ZLimitsInputAnswer } from '#core/schemas/limit-reports.schemas.ts';

/** The input travels as a plain JSON object; it is the engine's, typed by its own type. */
type LimitsInputAnswer = Omit<z.output<typeof ZLimitsInputAnswer>, 'input'> & {
  input: LimitsInput;
};

/**
 * GET {F}/limits/input: the engine's input as the server builds it from master data, with the
 * approved Chemical policy, or with its version being built (`draft`). Under `limitsKeys.all`,
 * so a change to master data refetches it like the matrix.
 */
export function useLimitsInput(
  enabled: boolean,
  policy: 'approved' | 'draft' = 'approved',
  productionId?: number,
) {
  const scope = useFacilityScope();
  const query = new URLSearchParams();
  if (policy === 'draft') query.set('policy', 'draft');
  // The MAC matrix page's production filter: what-if works on the same matrix the page shows.
  if (productionId !== undefined) query.set('productionId', String(productionId));
  const search = query.toString();
  return useQuery({
    queryKey: limitsKeys.input(scope.facilityId, policy, productionId),
    queryFn: async ({ signal }) =>
      (
        await apiRequest<LimitsInputAnswer>(
          `${facilityPath(scope)}/limits/input${search ? `?${search}` : ''}`,
          { signal, action: 'Loading the limits input' },
        )
      ).input,
    enabled,
    staleTime: 0,
    gcTime: 60_000,
  });
}
