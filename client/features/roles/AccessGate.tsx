import { Result } from 'antd';
import type { ReactNode } from 'react';
import { LoadingSpinner } from '../../account/LoadingSpinner.tsx';
import { canUseArea, type AdminArea } from './admin-areas.ts';
import { useMyPermissions } from './permissions-api.ts';

/** Opens a page only for users allowed to use it; anyone else gets a clear refusal. */
export function AccessGate({ area, children }: { area: AdminArea; children: ReactNode }) {
  const permissions = useMyPermissions();
  if (permissions.isPending) return <LoadingSpinner label="Checking your permissions" />;
  if (!canUseArea(permissions.data, area)) {
    return (
      <Result
        status="403"
        title="Not allowed"
        subTitle="You are not allowed to use this page. Ask your administrator for access."
      />
    );
  }
  return <>{children}</>;
}
