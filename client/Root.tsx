import { lazy, Suspense } from 'react';
import { AccountRoutes } from './account/AccountRoutes.tsx';
import { LoadingSpinner } from './account/LoadingSpinner.tsx';
import { useSession } from './session/use-session.ts';

// The main application is a separate chunk: the sign-in screens never download it.
const AppShell = lazy(() =>
  import('./app/AppShell.tsx').then((module) => ({ default: module.AppShell })),
);

/** Signed in (token and facility in the session): the main application; otherwise the account screens. */
export function Root() {
  const { isSignedIn } = useSession();
  if (!isSignedIn) return <AccountRoutes />;
  return (
    <Suspense fallback={<LoadingSpinner label="Loading Carryover" />}>
      <AppShell />
    </Suspense>
  );
}
