import { lazy, Suspense } from 'react';
import { LoadingSpinner } from '#client/account/LoadingSpinner.tsx';

// The policies page is its own chunk, loaded when it is first opened.
const PoliciesPage = lazy(() =>
  import('./PoliciesPage.tsx').then((module) => ({ default: module.PoliciesPage })),
);

export function LazyPolicies() {
  return (
    <Suspense fallback={<LoadingSpinner label="Loading the cleaning limit policies" />}>
      <PoliciesPage />
    </Suspense>
  );
}
