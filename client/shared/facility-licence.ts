import type { TMyPermissions } from '#core/schemas/roles.schemas.ts';
import type { LicenseInfo, LoginUser } from '../api/auth-types.ts';
import { readJson } from '../session/session-store.ts';
import { SESSION_KEYS } from '../session/session-keys.ts';

const READ_ACTIONS = new Set(['Get']);

/** The licence state of a facility as login gave it (genuine when the session keeps none). */
export function licenceStateOf(facilityId: number | null): LicenseInfo['state'] {
  const licenses = readJson<LicenseInfo[]>(SESSION_KEYS.licenseInfo) ?? [];
  return licenses.find((info) => info.facilityId === facilityId)?.state ?? 'genuine';
}

/** A grace-exceeded facility is read-only for everyone but a system administrator (as on the server). */
export function isReadOnlyFacility(facilityId: number | null): boolean {
  const user = readJson<LoginUser>(SESSION_KEYS.user);
  return licenceStateOf(facilityId) === 'grace-exceeded' && user?.isSystemAdmin !== true;
}

function readsOnly(map: TMyPermissions['facility']): TMyPermissions['facility'] {
  return Object.fromEntries(
    Object.entries(map).map(([resource, actions]) => [
      resource,
      Object.fromEntries(
        Object.entries(actions).map(([action, allowed]) => [
          action,
          allowed && READ_ACTIONS.has(action),
        ]),
      ),
    ]),
  );
}

/**
 * The permissions the screens go by: in a read-only facility only reads are left, so that every
 * edit action the permissions decide disappears. Applied where the permissions are fetched.
 */
export function effectivePermissions(
  facilityId: number | null,
  permissions: TMyPermissions,
): TMyPermissions {
  if (!isReadOnlyFacility(facilityId)) return permissions;
  return { ...permissions, facility: readsOnly(permissions.facility) };
}
