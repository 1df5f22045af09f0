import { can, type MyPermissions } from '../../app/use-my-permissions.ts';

/** Any of the settings tabs: account settings (User Get), default units, facility settings or its additional properties. */
export function canSeeSettings(permissions: MyPermissions): boolean {
  return (
    can(permissions.plan, 'User', 'Get') ||
    can(permissions.facility, 'DefaultUnit', 'Get') ||
    can(permissions.facility, 'Facility', 'Modify') ||
    can(permissions.facility, 'Facility', 'Get')
  );
}
