import type { Navigate } from './account-navigation.tsx';

/**
 * Follows a URL the server handed us (change-password, reset link, register redirect). Same-
 * origin URLs stay inside the single-page app; anything else is a real browser navigation.
 */
export function followUrl(url: string, navigate: Navigate): void {
  const target = new URL(url, window.location.origin);
  if (target.origin === window.location.origin && !target.pathname.startsWith('/api/')) {
    void navigate(`${target.pathname}${target.search}${target.hash}`);
  } else {
    window.location.assign(target.href);
  }
}
