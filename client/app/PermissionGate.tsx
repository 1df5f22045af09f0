import { Spin } from 'antd';
import { Suspense, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useMyPermissions, type MyPermissions } from './use-my-permissions.ts';

interface PermissionGateProps {
  isAllowed: (permissions: MyPermissions) => boolean;
  children: ReactNode;
}

/**
 * Renders an area only for a user whose permissions allow it; anyone else typing its address
 * goes home. The server refuses the calls either way: this only keeps the screen honest.
 */
export function PermissionGate({ isAllowed, children }: PermissionGateProps) {
  const permissions = useMyPermissions();
  if (permissions.isPending) return <Spin />;
  if (!permissions.data || !isAllowed(permissions.data)) return <Navigate to="/" replace />;
  return <Suspense fallback={<Spin />}>{children}</Suspense>;
}
