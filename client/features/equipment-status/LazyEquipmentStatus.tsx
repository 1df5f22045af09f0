import { lazy, Suspense } from 'react';
import { LoadingSpinner } from '#client/account/LoadingSpinner.tsx';

// The status board is its own chunk, loaded when it is first opened.
const EquipmentStatusPage = lazy(() =>
  import('./EquipmentStatusPage.tsx').then((module) => ({ default: module.EquipmentStatusPage })),
);

export function LazyEquipmentStatus() {
  return (
    <Suspense fallback={<LoadingSpinner label="Loading the equipment status" />}>
      <EquipmentStatusPage />
    </Suspense>
  );
}
