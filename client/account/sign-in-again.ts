import { clearSession, getSessionSnapshot } from '../session/session-store.ts';
import { signInAgainAddress } from './login-query.ts';

/**
 * The address of the Login screen that brings the user back to this page in this facility
 * (spec §2 redirect mode), ending what is left of the session here.
 */
export function leaveForSignIn(facilityId: number): string {
  const { pathname, search } = window.location;
  clearSession();
  return signInAgainAddress(pathname + search, facilityId);
}

/**
 * A page reloaded after its session ended (401/419) has nothing to show: it opens as the Login
 * screen in redirect mode instead, so signing in returns to it.
 */
export function resumeEndedSession(): void {
  const { ended, currentFacilityId } = getSessionSnapshot();
  if (!ended || currentFacilityId === null) return;
  window.history.replaceState(null, '', leaveForSignIn(currentFacilityId));
}
