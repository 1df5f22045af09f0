import type { TMyPermissions } from '#core/schemas/roles.schemas.ts';

/** Spec §6: saved custom reports are read with ReportDocument Get (each source adds its own). */
export function canSeeCustomReports(permissions: TMyPermissions): boolean {
  return permissions.facility.ReportDocument?.Get === true;
}
