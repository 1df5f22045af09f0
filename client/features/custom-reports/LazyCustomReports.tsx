import { lazy, Suspense } from 'react';
import { LoadingSpinner } from '#client/account/LoadingSpinner.tsx';

// Custom reports are their own chunk, loaded when first opened.
const CustomReportsPage = lazy(() =>
  import('./CustomReportsPage.tsx').then((module) => ({ default: module.CustomReportsPage })),
);

export function LazyCustomReports() {
  return (
    <Suspense fallback={<LoadingSpinner label="Loading the custom reports" />}>
      <CustomReportsPage />
    </Suspense>
  );
}
