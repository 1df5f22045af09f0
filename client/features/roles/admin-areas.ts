import type { TMyPermissions } from '#core/schemas/roles.schemas.ts';
import { canDo } from '#client/shared/permission-rules.ts';

/** The administration areas and the permission each needs (the server checks the same). */
export const ADMIN_AREAS = {
  users: { scope: 'plan', resource: 'User', action: 'Get' },
  departments: { scope: 'plan', resource: 'Department', action: 'Get' },
  roles: { scope: 'facility', resource: 'UserRole', action: 'Get' },
  operators: { scope: 'facility', resource: 'User', action: 'Get' },
  facilities: { scope: 'plan', resource: 'Facility', action: 'Get' },
  'facility-groups': { scope: 'plan', resource: 'Facility', action: 'Get' },
} as const;

export type AdminArea = keyof typeof ADMIN_AREAS;

/**
 * Restricted users (only Production or Quality Control roles, spec §6) never see
 * administration; everyone else sees the areas their roles allow.
 */
export function canUseArea(permissions: TMyPermissions | undefined, area: AdminArea): boolean {
  if (!permissions || permissions.isRestricted) return false;
  const need = ADMIN_AREAS[area];
  const map = need.scope === 'plan' ? permissions.plan : permissions.facility;
  return canDo(map, need.resource, need.action);
}
