import { useEffect } from 'react';
import { logout } from '../api/auth-api.ts';
import { announceSignOut } from '../session/session-channel.ts';
import { clearSession, getCachedFeatures, getToken } from '../session/session-store.ts';
import { LoadingSpinner } from './LoadingSpinner.tsx';
import { navigateTo, useAccountSearchParams, type Navigate } from './account-navigation.tsx';

let ending: Promise<void> | null = null;

/**
 * Ends the session: the server forgets the token (from `?token=` or the session), the browser
 * forgets the session and the logged-in flag, and the user is back at the root. Under SSO the
 * provider's own logout page follows, when one is configured. The other tabs sharing the session
 * end it too. Concurrent calls share one logout.
 */
export function endSession(navigate: Navigate, tokenFromAddress?: string | null) {
  ending ??= (async () => {
    const token = tokenFromAddress || getToken();
    const features = getCachedFeatures();
    await logout(token).catch(() => undefined);
    announceSignOut(token);
    // Same tick: the route change and the cleared session render together, so the application
    // shell never renders a signed-out state at its own path.
    if (features?.SSO && features.logoutUrl) window.location.assign(features.logoutUrl);
    else void navigate('/', { replace: true });
    clearSession();
  })().finally(() => {
    ending = null;
  });
  return ending;
}

export function LogoutPage() {
  const navigate = navigateTo;
  const params = useAccountSearchParams();
  const tokenFromAddress = params.get('token');

  useEffect(() => {
    void endSession(navigate, tokenFromAddress);
  }, [tokenFromAddress, navigate]);

  return <LoadingSpinner label="Signing out" />;
}
