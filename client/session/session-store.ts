import type {
  AdditionalProperties,
  Facility,
  Features,
  LoginResponse,
  LoginUser,
  ProductType,
  Tier,
} from '../api/auth-types.ts';
import { noteServerCall } from './idle-clock.ts';
import { facilityEntries, featuresEntries, loginEntries, userEntries } from './session-entries.ts';
import { LOGGED_IN_FLAG_KEY, SESSION_KEYS } from './session-keys.ts';

/**
 * The session lives in sessionStorage (one per tab, as the spec's session keys require). React
 * reads it through `useSession`, so the store notifies subscribers on every change: that is how
 * choosing a facility swaps the sign-in screens for the main application, and how a 401/419 from
 * any call swaps them back.
 */

/** 'expired': idle or too old (401); 'elsewhere': the user signed in on another device (419). */
export type SessionEnd = 'expired' | 'elsewhere';

export interface SessionSnapshot {
  token: string | null;
  currentFacilityId: number | null;
  planId: number | null;
  user: LoginUser | null;
  productType: ProductType | null;
  tier: Tier | null;
  isSignedIn: boolean;
  /** The session ended under an open page of a facility: the page stays while the user signs in again. */
  ended: SessionEnd | null;
}

const listeners = new Set<() => void>();
let snapshot: SessionSnapshot = readSnapshot();

function readNumber(key: string): number | null {
  const raw = sessionStorage.getItem(key);
  if (raw === null || raw === '') return null;
  const value = Number(raw);
  return Number.isFinite(value) ? value : null;
}

export function readJson<T>(key: string): T | null {
  const raw = sessionStorage.getItem(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

function readSnapshot(): SessionSnapshot {
  const token = sessionStorage.getItem(SESSION_KEYS.token);
  const currentFacilityId = readNumber(SESSION_KEYS.currentFacilityId);
  return {
    token,
    currentFacilityId,
    planId: readNumber(SESSION_KEYS.planId),
    user: readJson<LoginUser>(SESSION_KEYS.user),
    productType: sessionStorage.getItem(SESSION_KEYS.productType) as ProductType | null,
    tier: sessionStorage.getItem(SESSION_KEYS.tier) as Tier | null,
    isSignedIn: Boolean(token) && currentFacilityId !== null,
    ended:
      currentFacilityId === null
        ? null
        : (sessionStorage.getItem(SESSION_KEYS.sessionEnded) as SessionEnd | null),
  };
}

function notify(): void {
  snapshot = readSnapshot();
  for (const listener of listeners) listener();
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getSessionSnapshot(): SessionSnapshot {
  return snapshot;
}

export function getToken(): string | null {
  return sessionStorage.getItem(SESSION_KEYS.token);
}

export function setToken(token: string): void {
  sessionStorage.setItem(SESSION_KEYS.token, token);
  notify();
}

export function getCachedFeatures(): Features | null {
  return readJson<Features>(SESSION_KEYS.features);
}

export function cacheFeatures(features: Features): void {
  writeEntries(featuresEntries(features));
}

function writeEntries(entries: Record<string, string>): void {
  for (const [key, value] of Object.entries(entries)) sessionStorage.setItem(key, value);
}

/** A signed-in tab: its entries, and the flag the browser's other tabs read. */
function storeSignedIn(entries: Record<string, string>): void {
  writeEntries(entries);
  localStorage.setItem(LOGGED_IN_FLAG_KEY, 'true');
  notify();
}

/** Stores the user of a login or of `users/me` (the SSO flow has no login response). */
export function storeUser(user: LoginUser): void {
  storeSignedIn(userEntries(user));
}

export function storeLogin(response: LoginResponse): void {
  // A sign-in is a fresh session: its idle clock starts now.
  noteServerCall();
  sessionStorage.removeItem(SESSION_KEYS.sessionEnded);
  storeSignedIn(loginEntries(response));
}

/** Choosing a facility: the last step of signing in, and the facility switch of the shell. */
export function storeFacility(facility: Facility): void {
  writeEntries(facilityEntries(facility));
  notify();
}

export function getAdditionalProperties(): AdditionalProperties | null {
  return readJson<AdditionalProperties>(SESSION_KEYS.additionalProperties);
}

/**
 * A 401 or 419 under an open page of a facility: the token goes and the user is marked logged
 * out, but the facility, the page and whatever it holds stay until the user signs in again
 * (SignInAgainModal). Without a facility (still on the sign-in screens) the whole session goes.
 * Returns false when the session had already ended, so a burst of failing calls warns once.
 */
export function interruptSession(end: SessionEnd): boolean {
  if (sessionStorage.getItem(SESSION_KEYS.sessionEnded)) return false;
  if (sessionStorage.getItem(SESSION_KEYS.currentFacilityId) === null) {
    clearSession();
    return true;
  }
  sessionStorage.removeItem(SESSION_KEYS.token);
  sessionStorage.setItem(SESSION_KEYS.sessionEnded, end);
  localStorage.removeItem(LOGGED_IN_FLAG_KEY);
  notify();
  return true;
}

/** The session's entries, as another tab of this browser takes them over (session-channel.ts). */
export function sessionEntries(): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const key of Object.values(SESSION_KEYS)) {
    const value = sessionStorage.getItem(key);
    if (value !== null) entries[key] = value;
  }
  return entries;
}

/** Takes over entries another tab sent: a whole session, or the token of a new sign-in. */
export function adoptSession(entries: Record<string, string>): void {
  sessionStorage.removeItem(SESSION_KEYS.sessionEnded);
  for (const [key, value] of Object.entries(entries)) {
    const isSessionKey = (Object.values(SESSION_KEYS) as string[]).includes(key);
    if (isSessionKey && key !== SESSION_KEYS.sessionEnded) sessionStorage.setItem(key, value);
  }
  localStorage.setItem(LOGGED_IN_FLAG_KEY, 'true');
  notify();
}

/** Logout (and a 401/419 on the sign-in screens) ends here: the whole session and the logged-in flag go. */
export function clearSession(): void {
  sessionStorage.clear();
  localStorage.removeItem(LOGGED_IN_FLAG_KEY);
  notify();
}
