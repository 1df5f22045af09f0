import { lazy, Suspense } from 'react';
import { LoadingSpinner } from '#client/account/LoadingSpinner.tsx';

// The equipment detail page is its own chunk, loaded when it is first opened.
const EquipmentDetailPage = lazy(() =>
  import('./EquipmentDetailPage.tsx').then((module) => ({ default: module.EquipmentDetailPage })),
);

export function LazyEquipmentDetail() {
  return (
    <Suspense fallback={<LoadingSpinner label="Loading the equipment" />}>
      <EquipmentDetailPage />
    </Suspense>
  );
}
