import type {
  Facility,
  Features,
  LicenseInfo,
  LoginResponse,
  LoginUser,
} from '../api/auth-types.ts';
import { SESSION_KEYS } from './session-keys.ts';

/**
 * What each step of signing in writes to the tab's sessionStorage, as key and value. The store
 * writes them (session-store.ts); browser tests that start signed in write the same entries
 * (e2e/ui.ts, openSignedIn), so the two never drift apart. No storage is touched here.
 */

/** Spec §3: license info is kept only for facilities that need attention. */
function licensesWorthKeeping(licenseInfo: LicenseInfo[]): LicenseInfo[] {
  return licenseInfo.filter((info) => info.state !== 'genuine' && info.workflow !== 'none');
}

/** The user of a login or of `users/me` (the SSO flow has no login response). */
export function userEntries(user: LoginUser): Record<string, string> {
  return {
    [SESSION_KEYS.user]: JSON.stringify(user),
    [SESSION_KEYS.userId]: String(user.id),
    [SESSION_KEYS.email]: user.email ?? '',
    [SESSION_KEYS.planId]: String(user.planId),
  };
}

export function loginEntries(response: LoginResponse): Record<string, string> {
  return {
    [SESSION_KEYS.token]: response.token,
    [SESSION_KEYS.licenseInfo]: JSON.stringify(licensesWorthKeeping(response.licenseInfo ?? [])),
    ...userEntries(response.user),
  };
}

export function facilityEntries(facility: Facility): Record<string, string> {
  return {
    [SESSION_KEYS.currentFacilityId]: String(facility.id),
    [SESSION_KEYS.productType]: facility.productType,
    [SESSION_KEYS.tier]: facility.tier,
    [SESSION_KEYS.additionalProperties]: JSON.stringify(facility.additionalProperties ?? {}),
  };
}

export function featuresEntries(features: Features): Record<string, string> {
  return { [SESSION_KEYS.features]: JSON.stringify(features) };
}
