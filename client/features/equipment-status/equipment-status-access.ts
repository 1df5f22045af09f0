import type { TMyPermissions } from '#core/schemas/roles.schemas.ts';

/** The status board and the logbook are read with Equipment Get (server/modules/equipment-status). */
export function canSeeEquipmentStatus(permissions: TMyPermissions): boolean {
  return permissions.facility.Equipment?.Get === true;
}
