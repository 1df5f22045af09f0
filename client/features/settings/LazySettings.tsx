import { lazy } from 'react';
import { PermissionGate } from '#client/shared/PermissionGate.tsx';
import { canSeeSettings } from './settings-access.ts';

const SettingsPage = lazy(() =>
  import('./SettingsPage.tsx').then((module) => ({ default: module.SettingsPage })),
);

export function LazySettings() {
  return (
    <PermissionGate isAllowed={canSeeSettings}>
      <SettingsPage />
    </PermissionGate>
  );
}
