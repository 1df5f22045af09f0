import { useQuery } from '@tanstack/react-query';
import type { TMyPermissions } from '../../../core/schemas/roles.schemas.ts';
import { apiRequest } from '../../api/http-client.ts';
import { facilityPath } from './entity-api.ts';
import { useFacilityScope } from './use-facility-scope.ts';
import { effectivePermissions } from '../../app/facility-licence.ts';

/**
 * What the signed-in user may do in the current facility (GET {F}/UAM/permissions). Until that
 * answers, or when it cannot (a server without the call), nothing is hidden: the server still
 * refuses what the user may not do, and the client shows its 403 message.
 */
export function usePermissions() {
  const scope = useFacilityScope();
  const query = useQuery({
    // The key the shell's permission queries use, so both read one cached answer.
    queryKey: ['facilities', scope.facilityId, 'UAM', 'permissions'],
    queryFn: async ({ signal }) =>
      effectivePermissions(
        scope.facilityId,
        await apiRequest<TMyPermissions>(`${facilityPath(scope)}/UAM/permissions`, {
          signal,
          action: 'Loading your permissions',
        }),
      ),
    staleTime: 5 * 60_000,
  });
  const map = query.data?.facility;
  return {
    isKnown: map !== undefined,
    /** False only when the server said no; unknown counts as allowed. */
    can(resource: string, action: string): boolean {
      return map ? map[resource]?.[action] === true : true;
    },
  };
}
