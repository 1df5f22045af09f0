import { useQuery } from '@tanstack/react-query';
import type { TMethodLimitFitResponse } from '#core/schemas/analytical-methods.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath } from './entity-api.ts';
import { useFacilityScope } from './use-facility-scope.ts';
import { limitsKeys } from '#client/shared/query-keys.ts';

/**
 * `GET {F}/analytical-method/{id}/limit-fit`: the method's LOQ against the limits it serves.
 * Under the limits key, so a master-data change refetches it.
 */
export function useMethodLimitFit(methodId: number) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: limitsKeys.methodFit(scope.facilityId, methodId),
    queryFn: ({ signal }) =>
      apiRequest<TMethodLimitFitResponse>(
        `${facilityPath(scope)}/analytical-method/${methodId}/limit-fit`,
        { signal, action: 'Loading the limits the method is used for' },
      ),
  });
}
