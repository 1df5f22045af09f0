import { Result } from 'antd';
import { Suspense, type ReactNode } from 'react';
import { LoadingSpinner } from '../account/LoadingSpinner.tsx';
import type { MyPermissions } from './permission-rules.ts';
import { usePermissions } from './permissions.ts';

interface PermissionGateProps {
  isAllowed: (permissions: MyPermissions) => boolean;
  children: ReactNode;
}

/**
 * Renders an area only for a user whose permissions allow it: a spinner while they load, a clear
 * refusal when they do not allow it (or could not be read). The server refuses the calls either
 * way: this keeps the screen honest.
 */
export function PermissionGate({ isAllowed, children }: PermissionGateProps) {
  const permissions = usePermissions();
  if (permissions.isLoading) return <LoadingSpinner label="Checking your permissions" />;
  if (!permissions.data || !isAllowed(permissions.data)) {
    return (
      <Result
        status="403"
        title="Not allowed"
        subTitle="You are not allowed to use this page. Ask your administrator for access."
      />
    );
  }
  return <Suspense fallback={<LoadingSpinner label="Loading" />}>{children}</Suspense>;
}
