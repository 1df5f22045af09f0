import { useSession } from '#client/session/use-session.ts';
import type { FacilityScope } from './entity-api.ts';

/** The plan and facility of the session; the app shell renders only once both are chosen. */
export function useFacilityScope(): FacilityScope {
  const { planId, currentFacilityId } = useSession();
  if (planId === null || currentFacilityId === null) {
    throw new Error('Master data needs a chosen facility');
  }
  return { planId, facilityId: currentFacilityId };
}
