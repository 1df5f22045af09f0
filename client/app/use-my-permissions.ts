import { useQuery } from '@tanstack/react-query';
import type { TMyPermissions } from '../../core/schemas/roles.schemas.ts';
import { apiRequest } from '../api/http-client.ts';
import { useSession } from '../session/use-session.ts';
import { effectivePermissions } from './facility-licence.ts';

export type MyPermissions = TMyPermissions;

export const myPermissionsKey = (facilityId: number | null) =>
  ['facilities', facilityId, 'UAM', 'permissions'] as const;

/** The signed-in user's permission maps in the current facility and across the plan. */
export function useMyPermissions() {
  const { planId, currentFacilityId } = useSession();
  return useQuery({
    queryKey: myPermissionsKey(currentFacilityId),
    queryFn: async ({ signal }) =>
      effectivePermissions(
        currentFacilityId,
        await apiRequest<MyPermissions>(
          `/plans/${planId}/facilities/${currentFacilityId}/UAM/permissions`,
          { action: 'Loading your permissions', signal },
        ),
      ),
    enabled: planId !== null && currentFacilityId !== null,
  });
}

/** True when the map allows the action; an unknown map allows nothing. */
export function can(
  map: Record<string, Record<string, boolean>> | undefined,
  resource: string,
  action: string,
): boolean {
  return map?.[resource]?.[action] === true;
}
