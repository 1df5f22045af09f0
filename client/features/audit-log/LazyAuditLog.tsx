import { lazy } from 'react';
import { PermissionGate } from '#client/shared/PermissionGate.tsx';
import { canReadAuditLog } from './audit-log-access.ts';

const AuditLogPage = lazy(() =>
  import('./AuditLogPage.tsx').then((module) => ({ default: module.AuditLogPage })),
);

export function LazyAuditLog() {
  return (
    <PermissionGate isAllowed={canReadAuditLog}>
      <AuditLogPage />
    </PermissionGate>
  );
}
