import { Drawer, Skeleton } from 'antd';
import { lazy, Suspense } from 'react';

// The panel brings the limits engine with it: its own chunk, fetched when the panel first opens.
const WhatIfPanel = lazy(() =>
  import('./WhatIfPanel.tsx').then((module) => ({ default: module.WhatIfPanel })),
);

export function LazyWhatIfPanel({
  open,
  onClose,
  productionId,
}: {
  open: boolean;
  onClose: () => void;
  /** The production the MAC matrix page is filtered on; undefined for the whole facility. */
  productionId?: number | undefined;
}) {
  return (
    <Drawer title="What if…" open={open} onClose={onClose} size={880} destroyOnHidden>
      {open ? (
        <Suspense fallback={<Skeleton active />}>
          <WhatIfPanel productionId={productionId} />
        </Suspense>
      ) : null}
    </Drawer>
  );
}
