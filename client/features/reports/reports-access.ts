import type { TMyPermissions } from '#core/schemas/roles.schemas.ts';

/** Spec §6: the stored reports need ReportDocument Get. */
export function canSeeReports(permissions: TMyPermissions): boolean {
  return permissions.facility.ReportDocument?.Get === true;
}
