import { useQuery } from '@tanstack/react-query';
import type { EntityDef } from '#core/entities/entity.ts';
import type { TWhereUsed } from '#core/schemas/where-used.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { entityKeys } from '#client/shared/query-keys.ts';
import { facilityPath } from '#client/shared/master-data/entity-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';

/**
 * GET {F}/{path}/{id}/where-used. Other kinds' edits change it, so it is read afresh each
 * time the page opens (no stale time).
 */
export function useWhereUsed(def: EntityDef, id: number) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: entityKeys.whereUsed(scope.facilityId, def, id),
    queryFn: ({ signal }) =>
      apiRequest<TWhereUsed>(`${facilityPath(scope)}/${def.path}/${id}/where-used`, {
        signal,
        action: `Loading where the ${def.label.toLowerCase()} is used`,
      }),
  });
}
