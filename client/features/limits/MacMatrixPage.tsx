import { Button, Card, Tabs, Typography } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { LazyWhatIfPanel } from './LazyWhatIfPanel.tsx';
import { MacExportBar } from './MacExportBar.tsx';
import { MacGridTab } from './MacGridTab.tsx';
import { useMacMatrix, type MacMatrix } from './mac-matrix-api.ts';
import { MatrixState } from './MatrixState.tsx';
import { PairDrawer } from './PairDrawer.tsx';
import type { PairStore } from './pair-store.ts';
import { PairsTable } from './PairsTable.tsx';
import { EquipmentSummaryTable, ProductSummaryTable } from './SummaryTables.tsx';

const TABS = ['pairs', 'grid', 'products', 'equipment'] as const;
type Tab = (typeof TABS)[number];
const isTab = (key: string | null): key is Tab => TABS.includes(key as Tab);

/** The facility's MAC matrix, computed by the limits engine from its live master data. */
export function MacMatrixPage() {
  const [productionId, setProductionId] = useState<number | undefined>();
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: Tab = isTab(tabParam) ? tabParam : 'pairs';
  // The grid reads its own compact answer: the whole matrix document streams in only for the
  // views that list its pairs.
  const { matrix, progress } = useMacMatrix(productionId, tab !== 'grid');
  const store = matrix.data?.pairs;
  // The pair being explained, by its products: a refetch (a live update after anyone's change)
  // makes a new store whose rows may differ, and the drawer follows the pair into it, showing
  // its new numbers, or closes when the pair is gone.
  const [open, setOpenPair] = useState<{ previous: string; next: string } | null>(null);
  const setOpen = (row: number) => {
    if (!store) return;
    const { previous, next } = store.pairAt(row);
    setOpenPair({ previous, next });
  };
  const openPair = useMemo(() => {
    const row = open && store ? store.find(open.previous, open.next) : -1;
    return store && row >= 0 ? store.pairAt(row) : null;
  }, [open, store]);
  const [whatIf, setWhatIf] = useState(false);

  const listed = (view: (data: MacMatrix, store: PairStore) => ReactNode) => (
    <MatrixState
      query={matrix}
      what="MAC matrix"
      receivedBytes={progress?.bytes}
      uncomputable={matrix.data?.uncomputable}
      isEmpty={!store || store.length === 0}
    >
      {() => (matrix.data && store ? view(matrix.data, store) : null)}
    </MatrixState>
  );

  return (
    <Card extra={<Button onClick={() => setWhatIf(true)}>What if…</Button>}>
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        MAC matrix
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Every previous → next pair of products that share equipment, with the maximum allowable
        carryover (MACO) by each criterion, the one that governs, and the surface limit (SAL) over
        the shared area. Click a number to see how it was reached.
      </Typography.Paragraph>
      <MacExportBar productionId={productionId} onProductionChange={setProductionId} />
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams({ tab: key }, { replace: true })}
        items={[
          {
            key: 'pairs',
            label: 'Pairs',
            children: listed((_data, pairs) => <PairsTable store={pairs} onOpen={setOpen} />),
          },
          {
            key: 'grid',
            label: 'Grid',
            children: <MacGridTab productionId={productionId} />,
          },
          {
            key: 'products',
            label: 'Products',
            children: listed((data, pairs) => (
              <ProductSummaryTable products={data.products} store={pairs} onOpen={setOpen} />
            )),
          },
          {
            key: 'equipment',
            label: 'Equipment',
            children: listed((data, pairs) => (
              <EquipmentSummaryTable equipment={data.equipment} store={pairs} onOpen={setOpen} />
            )),
          },
        ]}
      />
      <PairDrawer pair={openPair} productionId={productionId} onClose={() => setOpenPair(null)} />
      <LazyWhatIfPanel open={whatIf} onClose={() => setWhatIf(false)} productionId={productionId} />
    </Card>
  );
}
