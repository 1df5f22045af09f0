import { lazy, Suspense } from 'react';
import { LoadingSpinner } from '#client/account/LoadingSpinner.tsx';

// Master data is its own chunk: neither the sign-in screens nor the shell download it up front.
const MasterDataRoutes = lazy(() =>
  import('./MasterDataRoutes.tsx').then((module) => ({ default: module.MasterDataRoutes })),
);

export function LazyMasterData() {
  return (
    <Suspense fallback={<LoadingSpinner label="Loading master data" />}>
      <MasterDataRoutes />
    </Suspense>
  );
}
