import { useQuery } from '@tanstack/react-query';
import type { LimitsInput } from '../../../core/limits/model.ts';
import { apiRequest } from '../../api/http-client.ts';
import { facilityPath } from '../master-data/entity-api.ts';
import { useFacilityScope } from '../master-data/use-facility-scope.ts';
import { limitsKeys } from './limits-keys.ts';

/**
 * GET {F}/limits/input: the engine's input as the server builds it from master data, with the
 * approved Chemical policy, or with its version being built (`draft`). Under `limitsKeys.all`,
 * so a change to master data refetches it like the matrix.
 */
export function useLimitsInput(enabled: boolean, policy: 'approved' | 'draft' = 'approved') {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: [...limitsKeys.all(scope.facilityId), 'input', policy],
    queryFn: async ({ signal }) =>
      (
        await apiRequest<{ input: LimitsInput }>(
          `${facilityPath(scope)}/limits/input${policy === 'draft' ? '?policy=draft' : ''}`,
          { signal, action: 'Loading the limits input' },
        )
      ).input,
    enabled,
    staleTime: 0,
    gcTime: 60_000,
  });
}
