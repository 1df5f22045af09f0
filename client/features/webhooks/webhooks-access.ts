import type { TMyPermissions } from '#core/schemas/roles.schemas.ts';

/** The webhook calls are guarded by Facility Get to read and Facility Modify to change. */
export function canSeeWebhooks(permissions: TMyPermissions): boolean {
  return permissions.facility.Facility?.Get === true;
}
