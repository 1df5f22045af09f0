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
