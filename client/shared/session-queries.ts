import { useQuery } from '@tanstack/react-query';
import { getCurrentUser, listFacilities } from '../api/auth-api.ts';

export const sessionKeys = {
  me: ['users', 'me'] as const,
  facilities: (planId: number | null) => ['plans', planId, 'facilities'] as const,
};

/** Who the user is and which facilities they have: the only queries a facility switch keeps. */
export function isSessionKey(queryKey: readonly unknown[]): boolean {
  const [first, second, third] = queryKey;
  return (first === 'users' && second === 'me') || (first === 'plans' && third === 'facilities');
}

/** GET users/me: also the check that the session still holds (401/419 end it). */
export function useCurrentUser() {
  return useQuery({
    queryKey: sessionKeys.me,
    queryFn: ({ signal }) => getCurrentUser(signal),
  });
}

export function useFacilities(planId: number | null) {
  return useQuery({
    queryKey: sessionKeys.facilities(planId),
    queryFn: ({ signal }) => listFacilities(planId as number, { signal }),
    enabled: planId !== null,
    select: (response) => response.facilities,
  });
}
