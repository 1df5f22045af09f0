import { lazy, Suspense } from 'react';
import { LoadingSpinner } from '#client/account/LoadingSpinner.tsx';

// The matrix page is its own chunk, loaded when it is first opened.
const MacMatrixPage = lazy(() =>
  import('./MacMatrixPage.tsx').then((module) => ({ default: module.MacMatrixPage })),
);

export function LazyMacMatrix() {
  return (
    <Suspense fallback={<LoadingSpinner label="Loading the MAC matrix" />}>
      <MacMatrixPage />
    </Suspense>
  );
}
