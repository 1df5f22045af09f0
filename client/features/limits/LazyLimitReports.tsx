import { lazy, Suspense } from 'react';
import { LoadingSpinner } from '#client/account/LoadingSpinner.tsx';

// The limits reports are their own chunk, loaded when first opened.
const LimitReportsPage = lazy(() =>
  import('./LimitReportsPage.tsx').then((module) => ({ default: module.LimitReportsPage })),
);

export function LazyLimitReports() {
  return (
    <Suspense fallback={<LoadingSpinner label="Loading the limits" />}>
      <LimitReportsPage />
    </Suspense>
  );
}
