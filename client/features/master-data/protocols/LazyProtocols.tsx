import { lazy, Suspense } from 'react';
import { LoadingSpinner } from '#client/account/LoadingSpinner.tsx';

// The protocols are their own chunk, loaded when first opened.
const ProtocolsPage = lazy(() =>
  import('./ProtocolsPage.tsx').then((module) => ({ default: module.ProtocolsPage })),
);

/** /protocols: the protocols' list, a protocol open by `?record=id`. */
export function LazyProtocols() {
  return (
    <Suspense fallback={<LoadingSpinner label="Loading the protocols" />}>
      <ProtocolsPage />
    </Suspense>
  );
}
