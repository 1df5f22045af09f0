import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../api/http-client.ts';
import { useSession } from '../session/use-session.ts';
import { effectivePermissions } from './facility-licence.ts';
import { canDo, permissionsKey, type MyPermissions } from './permission-rules.ts';

/**
 * What the signed-in user may do in the current facility (`facility`) and across the plan
 * (`plan`), from GET {F}/UAM/permissions. Nothing is allowed until the server has answered;
 * `isKnown` tells a screen to show a spinner rather than "not allowed" meanwhile.
 */
export function usePermissions() {
  const { planId, currentFacilityId } = useSession();
  const query = useQuery({
    queryKey: permissionsKey(currentFacilityId),
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
  const data = query.data;
  return {
    /** Both maps once known; undefined while loading or after a failure. */
    data,
    isKnown: data !== undefined,
    /** Still waiting for the answer (a failed call is not loading: it is known to allow nothing). */
    isLoading: data === undefined && !query.isError,
    /** The action in the current facility. */
    can: (resource: string, action: string) => canDo(data?.facility, resource, action),
    /** The action across the plan. */
    canInPlan: (resource: string, action: string) => canDo(data?.plan, resource, action),
  };
}
