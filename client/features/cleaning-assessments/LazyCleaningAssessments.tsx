import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { LoadingSpinner } from '#client/account/LoadingSpinner.tsx';

// The assessments are their own chunk, loaded when first opened.
const CleaningAssessmentsPage = lazy(() =>
  import('./CleaningAssessmentsPage.tsx').then((module) => ({
    default: module.CleaningAssessmentsPage,
  })),
);
const AssessmentDetailPage = lazy(() =>
  import('./AssessmentDetailPage.tsx').then((module) => ({
    default: module.AssessmentDetailPage,
  })),
);

/** The routes below /cleaning-assessments: the list with its tabs, and one assessment. */
export function LazyCleaningAssessments() {
  return (
    <Suspense fallback={<LoadingSpinner label="Loading the cleaning assessments" />}>
      <Routes>
        <Route index element={<CleaningAssessmentsPage />} />
        <Route path=":id" element={<AssessmentDetailPage />} />
      </Routes>
    </Suspense>
  );
}
