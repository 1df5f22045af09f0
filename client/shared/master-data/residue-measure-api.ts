import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TResidueMeasureRequest,
  ZResidueMeasureResponse,
} from '#core/schemas/analytical-methods.schemas.ts';
import type { z } from 'zod';
import { apiRequest } from '#client/api/http-client.ts';
import { entityKeys, limitsKeys } from '#client/shared/query-keys.ts';
import { analyticalMethodsDef } from '#core/entities/defs/cleaning.def.ts';
import { facilityPath } from './entity-api.ts';
import { useFacilityScope } from './use-facility-scope.ts';

type TResidueMeasureResponse = z.infer<typeof ZResidueMeasureResponse>;

const path = (base: string, methodId: number) =>
  `${base}/analytical-method/${methodId}/residue-measure`;

/** `GET {F}/analytical-method/{id}/residue-measure`: what the method measures. */
export function useResidueMeasure(methodId: number, enabled: boolean) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: limitsKeys.residueMeasure(scope.facilityId, methodId),
    queryFn: ({ signal }) =>
      apiRequest<TResidueMeasureResponse>(path(facilityPath(scope), methodId), {
        signal,
        action: 'Loading what the method measures',
      }),
    enabled,
  });
}

/**
 * `PUT {F}/analytical-method/{id}/residue-measure`. It moves the method's version and changes
 * what the method can show, so the method's record and the limit fit are read again.
 */
export function useSetResidueMeasure(methodId: number) {
  const scope = useFacilityScope();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TResidueMeasureRequest) =>
      apiRequest<TResidueMeasureResponse>(path(facilityPath(scope), methodId), {
        method: 'PUT',
        body,
        action: 'Changing what the method measures',
      }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: limitsKeys.all(scope.facilityId) }),
        queryClient.invalidateQueries({
          queryKey: entityKeys.all(scope.facilityId, analyticalMethodsDef),
        }),
      ]),
  });
}
