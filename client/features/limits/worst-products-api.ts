import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  ZEquipmentWorstProducts,
  ZTrainWorstProducts,
  ZWorstProductOverrideRequest,
} from '#core/schemas/worst-products.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath, type FacilityScope } from '#client/shared/master-data/entity-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { limitsKeys } from '#client/shared/query-keys.ts';

/* The worst-case product of each train and item, and their signed overrides (issue 32). */

export type TrainWorstProducts = z.output<typeof ZTrainWorstProducts>;
export type EquipmentWorstProducts = z.output<typeof ZEquipmentWorstProducts>;
export type WorstProductRow =
  TrainWorstProducts['trains'][number] | EquipmentWorstProducts['equipment'][number];
export type OverrideRequest = z.input<typeof ZWorstProductOverrideRequest>;

export type WorstSide = 'trains' | 'equipment';

/** Under the limits' keys: a master-data change refetches them with the other limits. */
export function useWorstProducts<S extends WorstSide>(side: S, enabled: boolean) {
  const scope = useFacilityScope();
  const path = `/worst-products/${side}`;
  return useQuery({
    queryKey: limitsKeys.report(scope.facilityId, path),
    enabled,
    queryFn: ({ signal }) =>
      apiRequest<S extends 'trains' ? TrainWorstProducts : EquipmentWorstProducts>(
        `${facilityPath(scope)}${path}`,
        { signal, action: 'Loading the worst-case products' },
      ),
  });
}

const overridePath = (scope: FacilityScope, side: WorstSide, targetId: number) =>
  `${facilityPath(scope)}/worst-products/${side}/${targetId}/override`;

/** Adds (POST) or, naming the override in force in `replaces`, replaces (PUT) an override. */
export function signOverride(
  scope: FacilityScope,
  side: WorstSide,
  targetId: number,
  body: OverrideRequest,
) {
  return apiRequest<WorstProductRow>(overridePath(scope, side, targetId), {
    method: body.replaces ? 'PUT' : 'POST',
    body,
    action: 'Signing the worst-case override',
  });
}

export function withdrawOverride(
  scope: FacilityScope,
  side: WorstSide,
  targetId: number,
  query: { overrideId: number; reason: string },
) {
  return apiRequest<WorstProductRow>(overridePath(scope, side, targetId), {
    method: 'DELETE',
    query,
    action: 'Withdrawing the worst-case override',
  });
}
