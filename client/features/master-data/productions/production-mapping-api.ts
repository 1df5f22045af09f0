import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ZGroupMap, ZProductionMap } from '#core/schemas/equipment-extras.schemas.ts';
import type {
  TProductionSurfaceArea,
  TSurfaceAreaSummaries,
} from '#core/schemas/productions.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { invalidateMasterData, mappingKeys } from '#client/shared/query-keys.ts';
import { facilityPath, type EntityPage } from '#client/shared/master-data/entity-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';

export type ProductionMap = z.output<typeof ZProductionMap>;
export type GroupMap = z.output<typeof ZGroupMap>;

/*
 * Kept under the entities' own keys (see shared/query-keys.ts), so that an edit of a
 * production or a group in the generic list refreshes these too.
 */
/** Every live production's total area: one call for the whole productions list. */
export function useProductionSurfaceAreas() {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: mappingKeys.surfaceAreas(scope.facilityId),
    queryFn: ({ signal }) =>
      apiRequest<TSurfaceAreaSummaries>(`${facilityPath(scope)}/productions/surface-areas`, {
        signal,
        action: 'Loading surface areas',
      }),
  });
}

export function useProductionSurfaceArea(id: number | undefined) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: mappingKeys.surfaceArea(scope.facilityId, id ?? 0),
    queryFn: ({ signal }) =>
      apiRequest<TProductionSurfaceArea>(`${facilityPath(scope)}/productions/${id}/surface-area`, {
        signal,
        action: 'Loading the surface area',
      }),
    enabled: id !== undefined,
  });
}

export function useProductionMap(id: number | undefined) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: mappingKeys.productionMap(scope.facilityId, id ?? 0),
    queryFn: ({ signal }) =>
      apiRequest<ProductionMap>(`${facilityPath(scope)}/productions/${id}/map`, {
        signal,
        action: 'Loading the production’s equipment',
      }),
    enabled: id !== undefined,
  });
}

export function useSaveProductionMap() {
  const scope = useFacilityScope();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      ...body
    }: Omit<ProductionMap, 'productionId'> & { id: number; reason: string }) =>
      apiRequest<ProductionMap>(`${facilityPath(scope)}/productions/${id}/map`, {
        method: 'POST',
        body,
        action: 'Saving the production’s equipment',
      }),
    onSuccess: () => invalidateMasterData(client, scope.facilityId),
  });
}

export function useGroupMap(id: number | undefined) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: mappingKeys.groupMap(scope.facilityId, id ?? 0),
    queryFn: ({ signal }) =>
      apiRequest<GroupMap>(`${facilityPath(scope)}/equipment_groups/${id}/map`, {
        signal,
        action: 'Loading the group’s equipment',
      }),
    enabled: id !== undefined,
  });
}

/** The group's live equipment with names and areas (GET {id}/equipments). */
export function useGroupEquipment(id: number | undefined) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: mappingKeys.groupEquipment(scope.facilityId, id ?? 0),
    queryFn: ({ signal }) =>
      apiRequest<EntityPage>(`${facilityPath(scope)}/equipment_groups/${id}/equipments`, {
        signal,
        query: { pageNumber: 1, pageLimit: 1000 },
        action: 'Loading the group’s equipment',
      }),
    enabled: id !== undefined,
  });
}

/** Equipment that no live group holds: what can be added to a group. */
export function useNoGroupEquipment() {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: mappingKeys.noGroup(scope.facilityId),
    queryFn: ({ signal }) =>
      apiRequest<EntityPage>(`${facilityPath(scope)}/equipments/no-group`, {
        signal,
        query: { pageNumber: 1, pageLimit: 1000 },
        action: 'Loading equipment in no group',
      }),
  });
}

export function useSaveGroupMap() {
  const scope = useFacilityScope();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: Omit<GroupMap, 'groupId'> & { id: number; reason: string }) =>
      apiRequest<GroupMap>(`${facilityPath(scope)}/equipment_groups/${id}/map`, {
        method: 'POST',
        body,
        action: 'Saving the group’s equipment',
      }),
    onSuccess: () => invalidateMasterData(client, scope.facilityId),
  });
}
