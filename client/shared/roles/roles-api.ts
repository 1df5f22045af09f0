import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PermissionMap } from '#core/permissions/permission-map.ts';
import type { TRole } from '#core/schemas/roles.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { useSession } from '#client/session/use-session.ts';
import { userFacilityKeys, userKeys } from '#client/shared/query-keys.ts';

export const roleKeys = {
  all: ['roles'] as const,
  list: (planId: number | null, facilityId: number | null, archived: boolean) =>
    ['roles', planId, facilityId, archived] as const,
};

function useFacilityPath(): string {
  const { planId, currentFacilityId } = useSession();
  return `/plans/${planId}/facilities/${currentFacilityId}`;
}

export function useRoles(archived: boolean) {
  const { planId, currentFacilityId } = useSession();
  const base = useFacilityPath();
  return useQuery({
    queryKey: roleKeys.list(planId, currentFacilityId, archived),
    queryFn: ({ signal }) =>
      apiRequest<TRole[]>(`${base}/user_roles`, {
        query: { archived },
        action: 'Loading roles',
        signal,
      }),
  });
}

function useRoleMutation<TVars>(fn: (base: string, vars: TVars) => Promise<TRole>) {
  const queryClient = useQueryClient();
  const base = useFacilityPath();
  return useMutation({
    mutationFn: (vars: TVars) => fn(base, vars),
    // The user form lists roles too, and the user's own permissions may have changed.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: roleKeys.all }),
        queryClient.invalidateQueries({ queryKey: userKeys.all }),
        queryClient.invalidateQueries({ queryKey: userFacilityKeys.all }),
      ]),
  });
}

export function useCreateRole() {
  return useRoleMutation((base, body: { name: string; permissions: PermissionMap }) =>
    apiRequest<TRole>(`${base}/user_roles`, { method: 'POST', body, action: 'Creating a role' }),
  );
}

export function useUpdateRole() {
  return useRoleMutation(
    (
      base,
      {
        id,
        ...body
      }: {
        id: number;
        name?: string;
        permissions?: PermissionMap;
        reason: string;
        version?: number;
        unArchive?: boolean;
      },
    ) =>
      apiRequest<TRole>(`${base}/user_roles/${id}`, {
        method: 'POST',
        body,
        action: 'Editing a role',
      }),
  );
}

export function useArchiveRole() {
  return useRoleMutation((base, { id, reason }: { id: number; reason: string }) =>
    apiRequest<TRole>(`${base}/user_roles/${id}/archive`, {
      method: 'PUT',
      body: { reason },
      action: 'Archiving a role',
    }),
  );
}
