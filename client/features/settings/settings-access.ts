import { canDo, type MyPermissions } from '#client/shared/permission-rules.ts';

/** Any of the settings tabs: account settings (User Get), default units, facility settings or its additional properties. */
export function canSeeSettings(permissions: MyPermissions): boolean {
  return (
    canDo(permissions.plan, 'User', 'Get') ||
    canDo(permissions.facility, 'DefaultUnit', 'Get') ||
    canDo(permissions.facility, 'Facility', 'Modify') ||
    canDo(permissions.facility, 'Facility', 'Get')
  );
}
