import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { LoadingSpinner } from '#client/account/LoadingSpinner.tsx';

// The studies are their own chunk, loaded when first opened.
const StudiesPage = lazy(() =>
  import('./StudiesPage.tsx').then((module) => ({ default: module.StudiesPage })),
);
const StudyDetailPage = lazy(() =>
  import('./StudyDetailPage.tsx').then((module) => ({ default: module.StudyDetailPage })),
);

/** The routes below /studies: the list, and one study with its runs. */
export function LazyStudies() {
  return (
    <Suspense fallback={<LoadingSpinner label="Loading the studies" />}>
      <Routes>
        <Route index element={<StudiesPage />} />
        <Route path=":id" element={<StudyDetailPage />} />
      </Routes>
    </Suspense>
  );
}
