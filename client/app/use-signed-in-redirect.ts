import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { Facility } from '../api/auth-types.ts';
import { readLoginQuery } from '../account/login-query.ts';
import { storeFacility } from '../session/session-store.ts';

/**
 * Redirect mode for a user who is already signed in (a link opened in the same tab): go to the
 * path within the requested facility, if it is one of theirs, without signing in again.
 */
export function useSignedInRedirect(facilities: Facility[] | undefined): void {
  const navigate = useNavigate();
  const { search } = useLocation();

  useEffect(() => {
    const { redirect } = readLoginQuery(search);
    if (!redirect || !facilities) return;
    const facility = facilities.find((candidate) => candidate.id === redirect.facilityId);
    void navigate(facility ? redirect.path : '/', { replace: true });
    if (facility) storeFacility(facility);
  }, [search, facilities, navigate]);
}
