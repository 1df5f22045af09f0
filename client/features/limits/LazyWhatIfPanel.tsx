import { Drawer, Skeleton } from 'antd';
import { lazy, Suspense } from 'react';

// The panel brings the limits engine with it: its own chunk, fetched when the panel first opens.
const WhatIfPanel = lazy(() =>
  import('./WhatIfPanel.tsx').then((module) => ({ default: module.WhatIfPanel })),
);

export function LazyWhatIfPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Drawer title="What if…" open={open} onClose={onClose} size={880} destroyOnHidden>
      {open ? (
        <Suspense fallback={<Skeleton active />}>
          <WhatIfPanel />
        </Suspense>
      ) : null}
    </Drawer>
  );
}
