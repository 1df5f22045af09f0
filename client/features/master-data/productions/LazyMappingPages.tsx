import { lazy, Suspense } from 'react';
import { LoadingSpinner } from '#client/account/LoadingSpinner.tsx';

// The mapping screens are their own chunk: the master-data lists do not download them.
const MatrixPage = lazy(() =>
  import('./ProductionEquipmentMatrixPage.tsx').then((module) => ({
    default: module.ProductionEquipmentMatrixPage,
  })),
);
const GroupPage = lazy(() =>
  import('./EquipmentGroupMappingPage.tsx').then((module) => ({
    default: module.EquipmentGroupMappingPage,
  })),
);

/** Paths under /master-data; no entity has them, so they are matched before `:path`. */
export const PRODUCTION_MATRIX_PATH = 'production-equipment-matrix';
export const GROUP_MAPPING_PATH = 'equipment-group-mapping';

export function LazyProductionMatrix() {
  return (
    <Suspense fallback={<LoadingSpinner label="Loading the matrix" />}>
      <MatrixPage />
    </Suspense>
  );
}

export function LazyGroupMapping() {
  return (
    <Suspense fallback={<LoadingSpinner label="Loading the group mapping" />}>
      <GroupPage />
    </Suspense>
  );
}
