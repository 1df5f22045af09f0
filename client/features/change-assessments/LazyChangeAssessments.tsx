import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { PermissionGate } from '#client/shared/PermissionGate.tsx';
import { canSeeChangeAssessments } from './change-assessments-access.ts';

// Change control is its own chunk, loaded when it is first opened.
const ChangeAssessmentsPage = lazy(() =>
  import('./ChangeAssessmentsPage.tsx').then((module) => ({
    default: module.ChangeAssessmentsPage,
  })),
);
const ChangeAssessmentPage = lazy(() =>
  import('./ChangeAssessmentPage.tsx').then((module) => ({
    default: module.ChangeAssessmentPage,
  })),
);

export function LazyChangeAssessments() {
  return (
    <PermissionGate isAllowed={canSeeChangeAssessments}>
      <Routes>
        <Route index element={<ChangeAssessmentsPage />} />
        <Route path=":id" element={<ChangeAssessmentPage />} />
      </Routes>
    </PermissionGate>
  );
}
