import type { TMyPermissions } from '#core/schemas/roles.schemas.ts';

export type MyPermissions = TMyPermissions;
type PermissionMap = MyPermissions['facility'];

/**
 * The one cache entry of the signed-in user's permissions in a facility. It starts with
 * 'facilities', so invalidating ['facilities'] after a role, grant or facility change refreshes it.
 */
export const permissionsKey = (facilityId: number | null) =>
  ['facilities', facilityId, 'UAM', 'permissions'] as const;

/**
 * True when the map allows the action. An unknown map (still loading, or the call failed)
 * allows nothing: the screen never offers what the user may not have, even for a moment.
 */
export function canDo(map: PermissionMap | undefined, resource: string, action: string): boolean {
  return map?.[resource]?.[action] === true;
}
