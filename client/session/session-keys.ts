/**
 * Every browser-storage key the client uses, in one place (spec §9). The names are shared with
 * browser tests and with the server's SSO redirect, so they never change casually.
 */
export const SESSION_KEYS = {
  currentFacilityId: 'currentFacilityId',
  productType: 'productType',
  tier: 'tier',
  features: 'features',
  email: 'email',
  userId: 'userId',
  token: 'token',
  licenseInfo: 'licenseInfo',
  additionalProperties: 'additionalProperties',
  planId: 'planId',
  user: 'user',
  /** Why the session ended under an open page (401 or 419): it waits for the user to sign in again. */
  sessionEnded: 'sessionEnded',
  /** Redirect mode's path and facility while the browser is away at the SSO provider. */
  ssoReturn: 'ssoReturn',
} as const;

export type SessionKey = (typeof SESSION_KEYS)[keyof typeof SESSION_KEYS];

/** The logged-in flag lives in localStorage (not sessionStorage), as 'true' while signed in. */
export const LOGGED_IN_FLAG_KEY = 'isLoggedIn';

/** When this browser last reached the server with the session (ms since epoch), shared by tabs. */
export const LAST_SERVER_CALL_KEY = 'lastServerCallAt';

/** The server's idle timeout in seconds, as it told the client (POST /auth/session). */
export const IDLE_TIMEOUT_KEY = 'idleTimeoutSeconds';
