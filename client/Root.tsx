import { lazy, Suspense } from 'react';
import { AccountRoutes } from './account/AccountRoutes.tsx';
import { LoadingSpinner } from './account/LoadingSpinner.tsx';
import { SSO_SIGNATURE_PATH } from './account/sso-signature-channel.ts';
import { SsoSignatureReturn } from './account/SsoSignatureReturn.tsx';
import { useSession } from './session/use-session.ts';

// The main application is a separate chunk: the sign-in screens never download it.
const AppShell = lazy(() =>
  import('./app/AppShell.tsx').then((module) => ({ default: module.AppShell })),
);

/** Signed in (token and facility in the session): the main application; otherwise the account screens. */
export function Root() {
  const { isSignedIn } = useSession();
  // The provider's window of a signature: it only hands the proof back, whoever is signed in.
  if (window.location.pathname === SSO_SIGNATURE_PATH) return <SsoSignatureReturn />;
  if (!isSignedIn) return <AccountRoutes />;
  return (
    <Suspense fallback={<LoadingSpinner label="Loading Carryover" />}>
      <AppShell />
    </Suspense>
  );
}
