import { lazy, Suspense } from 'react';
import { LoadingSpinner } from '#client/account/LoadingSpinner.tsx';

// The MAC formulas are their own chunk (with the engine for the preview), loaded when first opened.
const MacFormulasPage = lazy(() =>
  import('./MacFormulasPage.tsx').then((module) => ({ default: module.MacFormulasPage })),
);

/** /policies/mac-formulas: the list, a formula open by `?record=id`, and the preview. */
export function LazyMacFormulas() {
  return (
    <Suspense fallback={<LoadingSpinner label="Loading the MAC formulas" />}>
      <MacFormulasPage />
    </Suspense>
  );
}
