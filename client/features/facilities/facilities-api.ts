import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TFacilityGroupRecord,
  TFacilityRecord,
  ZFacilityGroupRecord,
  ZFacilityRecord,
} from '#core/schemas/facilities.schemas.ts';
import type { TPage } from '#core/schemas/common.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityAdminKeys, userFacilityKeys } from '#client/shared/query-keys.ts';
import { sessionKeys } from '#client/shared/session-queries.ts';
import { useSession } from '#client/session/use-session.ts';

export type FacilityValues = Pick<
  TFacilityRecord,
  'name' | 'productType' | 'tier' | 'facilityGroupId'
>;

function usePlanPath(): string {
  const { planId } = useSession();
  return `/plans/${planId}`;
}

export function useFacilityRecords(search: string, pageNumber: number, pageLimit: number) {
  const plan = usePlanPath();
  return useQuery({
    queryKey: facilityAdminKeys.facilities(search, pageNumber, pageLimit),
    queryFn: ({ signal }) =>
      apiRequest<TPage<typeof ZFacilityRecord>>(`${plan}/facilities/all`, {
        query: { search: search || undefined, pageNumber, pageLimit },
        action: 'Loading facilities',
        signal,
      }),
  });
}

export function useFacilityGroups(search = '', pageNumber = 1, pageLimit = 100) {
  const plan = usePlanPath();
  return useQuery({
    queryKey: facilityAdminKeys.groups(search, pageNumber, pageLimit),
    queryFn: ({ signal }) =>
      apiRequest<TPage<typeof ZFacilityGroupRecord>>(`${plan}/facility-groups`, {
        query: { search: search || undefined, pageNumber, pageLimit },
        action: 'Loading facility groups',
        signal,
      }),
  });
}

function useSave<TVars, TResult>(fn: (plan: string, vars: TVars) => Promise<TResult>) {
  const { planId } = useSession();
  const plan = usePlanPath();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: TVars) => fn(plan, vars),
    // The facility chooser and the shell read the facilities too (their names, tiers, rights).
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: facilityAdminKeys.all }),
        queryClient.invalidateQueries({ queryKey: sessionKeys.facilities(planId) }),
        queryClient.invalidateQueries({ queryKey: userFacilityKeys.all }),
      ]),
  });
}

export function useSaveFacility() {
  return useSave(
    (
      plan,
      { id, ...body }: Partial<FacilityValues> & { id?: number; reason?: string; version?: number },
    ) =>
      apiRequest<TFacilityRecord>(id ? `${plan}/facilities/${id}` : `${plan}/facilities`, {
        method: 'POST',
        body,
        action: id ? 'Saving the facility' : 'Creating a facility',
      }),
  );
}

export function useSaveFacilityGroup() {
  return useSave(
    (plan, { id, ...body }: { id?: number; name: string; reason?: string; version?: number }) =>
      apiRequest<TFacilityGroupRecord>(
        id ? `${plan}/facility-groups/${id}` : `${plan}/facility-groups`,
        {
          method: 'POST',
          body,
          action: id ? 'Renaming the facility group' : 'Creating a facility group',
        },
      ),
  );
}
