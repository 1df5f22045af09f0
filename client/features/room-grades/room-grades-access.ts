import type { TMyPermissions } from '#core/schemas/roles.schemas.ts';

/** The room grade calls are guarded by Equipment Get (server/modules/room-grades). */
export function canSeeRoomGrades(permissions: TMyPermissions): boolean {
  return permissions.facility.Equipment?.Get === true;
}
