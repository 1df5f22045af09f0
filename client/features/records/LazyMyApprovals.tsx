import { lazy, Suspense } from 'react';
import { LoadingSpinner } from '#client/account/LoadingSpinner.tsx';

const MyApprovalsPage = lazy(() =>
  import('./MyApprovalsPage.tsx').then((module) => ({ default: module.MyApprovalsPage })),
);

export function LazyMyApprovals() {
  return (
    <Suspense fallback={<LoadingSpinner label="Loading your approvals" />}>
      <MyApprovalsPage />
    </Suspense>
  );
}
