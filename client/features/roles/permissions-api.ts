import { useQuery } from '@tanstack/react-query';
import type { TMyPermissions } from '../../../core/schemas/roles.schemas.ts';
import { apiRequest } from '../../api/http-client.ts';
import { useSession } from '../../session/use-session.ts';
import { effectivePermissions } from '../../app/facility-licence.ts';

// The same key as the shell's navigation query, so that both read one cached answer.
export const permissionKeys = {
  mine: (facilityId: number | null) => ['facilities', facilityId, 'UAM', 'permissions'] as const,
};

/** What the signed-in user may do here: decides which areas the navigation offers. */
export function useMyPermissions() {
  const { planId, currentFacilityId } = useSession();
  return useQuery({
    queryKey: permissionKeys.mine(currentFacilityId),
    queryFn: async ({ signal }) =>
      effectivePermissions(
        currentFacilityId,
        await apiRequest<TMyPermissions>(
          `/plans/${planId}/facilities/${currentFacilityId}/UAM/permissions`,
          { action: 'Loading your permissions', signal },
        ),
      ),
    enabled: planId !== null && currentFacilityId !== null,
  });
}
