import type { TMyPermissions } from '#core/schemas/roles.schemas.ts';

/** The policy calls are guarded by CleaningPolicy Get (spec §6). */
export function canSeePolicies(permissions: TMyPermissions): boolean {
  return permissions.facility.CleaningPolicy?.Get === true;
}
