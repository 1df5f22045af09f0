import type { TMyPermissions } from '#core/schemas/roles.schemas.ts';

/** The MAC matrix call is guarded by RiskCalculation Get (spec §6). */
export function canSeeLimits(permissions: TMyPermissions): boolean {
  return permissions.facility.RiskCalculation?.Get === true;
}

/** The limits reports: any of their calls' permissions (spec §6) opens the page. */
export function canSeeLimitReports(permissions: TMyPermissions): boolean {
  const f = permissions.facility;
  return (
    f.RiskCalculation?.Get === true ||
    f.EquipmentWiseCleaningLimit?.Get === true ||
    f.EquipmentWiseCleaningAgentLimit?.Get === true
  );
}
