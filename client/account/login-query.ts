import { SESSION_KEYS } from '../session/session-keys.ts';

/** What the Login screen reads from its address (spec §2 Login). */
export interface LoginQuery {
  token: string | null;
  sso: boolean;
  error: string | null;
  /** Redirect mode: after login go straight to `path` within `facilityId`. */
  redirect: { path: string; facilityId: number } | null;
}

/** Only paths inside this app: `//evil.example` would leave it. */
function isInternalPath(path: string | null): path is string {
  return Boolean(path && path.startsWith('/') && !path.startsWith('//') && !path.includes('\\'));
}

export function readLoginQuery(search: string): LoginQuery {
  const params = new URLSearchParams(search);
  const path = params.get('path');
  const facilityId = Number(params.get('facilityId') || NaN);
  const redirect =
    params.get('redirect') === 'true' &&
    isInternalPath(path) &&
    Number.isInteger(facilityId) &&
    facilityId > 0
      ? { path, facilityId }
      : null;
  return {
    token: params.get('token'),
    sso: params.get('sso') === 'true',
    error: params.get('error'),
    redirect,
  };
}

/** The address without the login token: it must not stay in history or be shared by copy-paste. */
export function searchWithoutToken(search: string): string {
  const params = new URLSearchParams(search);
  params.delete('token');
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

/** The Login screen in redirect mode: after signing in, back to `path` within `facilityId`. */
export function signInAgainAddress(path: string, facilityId: number): string {
  const params = new URLSearchParams({ redirect: 'true', path, facilityId: String(facilityId) });
  return `/?${params.toString()}`;
}

/**
 * The SSO provider sends the browser back to `/?sso=true&token=…` without the redirect-mode
 * query, so it waits in this tab's storage for the return.
 */
export function keepRedirectForSso(redirect: LoginQuery['redirect']): void {
  if (!redirect) return;
  const params = new URLSearchParams({
    redirect: 'true',
    path: redirect.path,
    facilityId: String(redirect.facilityId),
  });
  sessionStorage.setItem(SESSION_KEYS.ssoReturn, params.toString());
}

/** The Login screen's query, with the redirect kept for the SSO round trip once it is back. */
export function readLoginQueryAfterSso(search: string): LoginQuery {
  const query = readLoginQuery(search);
  const kept = sessionStorage.getItem(SESSION_KEYS.ssoReturn);
  sessionStorage.removeItem(SESSION_KEYS.ssoReturn);
  if (!query.sso || query.redirect || kept === null) return query;
  return { ...query, redirect: readLoginQuery(`?${kept}`).redirect };
}
