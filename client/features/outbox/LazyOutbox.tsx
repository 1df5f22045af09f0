import { lazy } from 'react';
import { PermissionGate } from '#client/shared/PermissionGate.tsx';
import { canReadOutbox } from './outbox-access.ts';

const OutboxPage = lazy(() =>
  import('./OutboxPage.tsx').then((module) => ({ default: module.OutboxPage })),
);

export function LazyOutbox() {
  return (
    <PermissionGate isAllowed={canReadOutbox}>
      <OutboxPage />
    </PermissionGate>
  );
}
