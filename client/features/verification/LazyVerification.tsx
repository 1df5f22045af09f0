import { lazy, Suspense } from 'react';
import { LoadingSpinner } from '#client/account/LoadingSpinner.tsx';

// The run screen and the statistics are their own chunks, loaded when first opened.
const RunPage = lazy(() => import('./RunPage.tsx').then((m) => ({ default: m.RunPage })));
const DeviationRedirect = lazy(() =>
  import('./DeviationRedirect.tsx').then((m) => ({ default: m.DeviationRedirect })),
);
const StatisticsPage = lazy(() =>
  import('./StatisticsPage.tsx').then((m) => ({ default: m.StatisticsPage })),
);

const ResultsImportPage = lazy(() =>
  import('./ResultsImportPage.tsx').then((m) => ({ default: m.ResultsImportPage })),
);

/** /verification/results-import — results from the laboratory's system (issue 33). */
export function LazyResultsImport() {
  return (
    <Suspense fallback={<LoadingSpinner label="Loading the results import" />}>
      <ResultsImportPage />
    </Suspense>
  );
}

/** /runs/:id — a run at the line. */
export function LazyRun() {
  return (
    <Suspense fallback={<LoadingSpinner label="Loading the run" />}>
      <RunPage />
    </Suspense>
  );
}

/** /verification — ongoing verification statistics. */
export function LazyVerification() {
  return (
    <Suspense fallback={<LoadingSpinner label="Loading the ongoing verification" />}>
      <StatisticsPage />
    </Suspense>
  );
}

/** /deviations/:id — opens the run the deviation belongs to. */
export function LazyDeviation() {
  return (
    <Suspense fallback={<LoadingSpinner label="Loading the deviation" />}>
      <DeviationRedirect />
    </Suspense>
  );
}
