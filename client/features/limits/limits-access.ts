import type { TMyPermissions } from '../../../core/schemas/roles.schemas.ts';

/** The MAC matrix call is guarded by RiskCalculation Get (spec §6). */
export function canSeeLimits(permissions: TMyPermissions): boolean {
  return permissions.facility.RiskCalculation?.Get === true;
}
