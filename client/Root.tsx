import { lazy, Suspense, useEffect, useState } from 'react';
import { AccountRoutes } from './account/AccountRoutes.tsx';
import { LoadingSpinner } from './account/LoadingSpinner.tsx';
import { SSO_SIGNATURE_PATH } from './account/sso-signature-channel.ts';
import { joinOpenSession, mayJoinOpenSession } from './session/session-channel.ts';
import { useSession } from './session/use-session.ts';

// The main application is a separate chunk: the sign-in screens never download it.
const AppShell = lazy(() =>
  import('./app/AppShell.tsx').then((module) => ({ default: module.AppShell })),
);
// Only a provider's window after a signature opens it; its antd Result (icons and illustrations)
// stays off the Login screen.
const SsoSignatureReturn = lazy(() =>
  import('./account/SsoSignatureReturn.tsx').then((module) => ({
    default: module.SsoSignatureReturn,
  })),
);

/**
 * Signed in (token and facility in the session), or signing in again over a page whose session
 * ended: the main application; otherwise the account screens.
 */
export function Root() {
  const { isSignedIn, ended } = useSession();
  const isJoining = useJoinOpenSession();
  // The provider's window of a signature: it only hands the proof back, whoever is signed in.
  if (window.location.pathname === SSO_SIGNATURE_PATH)
    return (
      <Suspense fallback={<LoadingSpinner label="Loading Carryover" />}>
        <SsoSignatureReturn />
      </Suspense>
    );
  // A new tab first asks the browser's open tabs for their session, before any route decides.
  if (isJoining) return <LoadingSpinner label="Loading Carryover" />;
  if (!isSignedIn && !ended) return <AccountRoutes />;
  return (
    <Suspense fallback={<LoadingSpinner label="Loading Carryover" />}>
      <AppShell />
    </Suspense>
  );
}

/** True while a new tab waits for another tab's session (session-channel.ts). */
function useJoinOpenSession(): boolean {
  const [isJoining, setJoining] = useState(mayJoinOpenSession);
  useEffect(() => {
    let isCurrent = true;
    void joinOpenSession().then(() => isCurrent && setJoining(false));
    return () => {
      isCurrent = false;
    };
  }, []);
  return isJoining;
}
