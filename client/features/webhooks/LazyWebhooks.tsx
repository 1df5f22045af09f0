import { lazy, Suspense } from 'react';
import { LoadingSpinner } from '#client/account/LoadingSpinner.tsx';

// The webhooks page is its own chunk, loaded when it is first opened.
const WebhooksPage = lazy(() =>
  import('./WebhooksPage.tsx').then((module) => ({ default: module.WebhooksPage })),
);

export function LazyWebhooks() {
  return (
    <Suspense fallback={<LoadingSpinner label="Loading the webhooks" />}>
      <WebhooksPage />
    </Suspense>
  );
}
