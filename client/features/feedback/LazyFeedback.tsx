import { lazy } from 'react';
import { PermissionGate } from '#client/shared/PermissionGate.tsx';
import { canReadFeedback } from './feedback-access.ts';

const FeedbackPage = lazy(() =>
  import('./FeedbackPage.tsx').then((module) => ({ default: module.FeedbackPage })),
);

export function LazyFeedback() {
  return (
    <PermissionGate isAllowed={canReadFeedback}>
      <FeedbackPage />
    </PermissionGate>
  );
}
