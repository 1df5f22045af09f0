import { lazy, Suspense } from 'react';
import { LoadingSpinner } from '#client/account/LoadingSpinner.tsx';

// The reports are their own chunk, loaded when first opened.
const ReportsPage = lazy(() =>
  import('./ReportsPage.tsx').then((module) => ({ default: module.ReportsPage })),
);

export function LazyReports() {
  return (
    <Suspense fallback={<LoadingSpinner label="Loading the reports" />}>
      <ReportsPage />
    </Suspense>
  );
}
