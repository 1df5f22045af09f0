import { useSyncExternalStore, type MouseEvent, type ReactNode } from 'react';

/*
 * How the account screens (sign-in, recovery, registration, sign-out) move between their
 * addresses: through the browser's history, as react-router does, but without it. The router
 * comes with the main application (AppShell), so the Login screen does not download it (issue
 * 34: the Login screen's JavaScript at most 1.1× a one-form antd app, bench/login-bundle). The
 * application's router reads the same address when it starts.
 */

export type NavigateTo = string | { pathname: string; search?: string };
export type Navigate = (to: NavigateTo, options?: { replace?: boolean }) => void;

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
}

const address = () => `${window.location.pathname}${window.location.search}`;

/** Goes to `to` within the page, adding a history entry (or replacing the current one). */
export const navigateTo: Navigate = (to, options = {}) => {
  const url = typeof to === 'string' ? to : `${to.pathname}${to.search ?? ''}`;
  if (options.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  for (const listener of listeners) listener();
};

/** The address now; the screen renders again when it moves. */
export function useAccountLocation(): { pathname: string; search: string } {
  const current = useSyncExternalStore(subscribe, address);
  const url = new URL(current, window.location.origin);
  return { pathname: url.pathname, search: url.search };
}

export function useAccountSearchParams(): URLSearchParams {
  return new URLSearchParams(useAccountLocation().search);
}

/** A link to another account screen: followed within the page unless opened elsewhere. */
export function AccountLink({ to, children }: { to: string; children: ReactNode }) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    // A new tab or window (modifier keys, middle button) is the browser's to open.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
      return;
    event.preventDefault();
    navigateTo(to);
  };
  return (
    <a href={to} onClick={follow}>
      {children}
    </a>
  );
}
