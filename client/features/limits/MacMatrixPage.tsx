import { Alert, Button, Card, Empty, Progress, Skeleton, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { LazyWhatIfPanel } from './LazyWhatIfPanel.tsx';
import { MacExportBar } from './MacExportBar.tsx';
import { LeftOutAlert } from './LeftOutAlert.tsx';
import { useMacMatrix } from './mac-matrix-api.ts';
import { PairDrawer } from './PairDrawer.tsx';
import type { PairStore } from './pair-store.ts';
import { PairsTable } from './PairsTable.tsx';
import { EquipmentSummaryTable, ProductSummaryTable } from './SummaryTables.tsx';

/** The facility's MAC matrix, computed by the limits engine from its live master data. */
export function MacMatrixPage() {
  const [productionId, setProductionId] = useState<number | undefined>();
  const { matrix, progress } = useMacMatrix(productionId);
  const store = matrix.data?.pairs;
  // The row of the pair being explained, in the store it was opened from: a refetch makes a
  // new store whose rows may differ.
  const [open, setOpenRow] = useState<{ store: PairStore; row: number } | null>(null);
  const setOpen = (row: number) => setOpenRow(store ? { store, row } : null);
  const [whatIf, setWhatIf] = useState(false);

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
      {matrix.isPending ? (
        <>
          {progress && progress.pairs > 0 ? (
            <div role="status" style={{ marginBottom: 16 }}>
              <Typography.Text>
                Computing limits: {progress.pairs.toLocaleString('en-US')} pairs received
              </Typography.Text>
              <Progress percent={100} status="active" showInfo={false} />
            </div>
          ) : null}
          <Skeleton active />
        </>
      ) : matrix.isError ? (
        <Alert
          type="error"
          showIcon
          title="Could not load the MAC matrix"
          description={matrix.error.message}
          action={<Button onClick={() => void matrix.refetch()}>Try again</Button>}
        />
      ) : null}
      {matrix.data ? <LeftOutAlert uncomputable={matrix.data.uncomputable} /> : null}
      {matrix.isPending || matrix.isError ? null : !store || store.length === 0 ? (
        <Empty
          description={
            <>
              <div>No limits yet.</div>
              <div>
                Limits appear once products with actives share equipment through a production.
              </div>
            </>
          }
        >
          <Link to="/master-data/productions">Go to productions</Link>
        </Empty>
      ) : (
        <Tabs
          items={[
            {
              key: 'pairs',
              label: 'Pairs',
              children: <PairsTable store={store} onOpen={setOpen} />,
            },
            {
              key: 'products',
              label: 'Products',
              children: (
                <ProductSummaryTable
                  products={matrix.data.products}
                  store={store}
                  onOpen={setOpen}
                />
              ),
            },
            {
              key: 'equipment',
              label: 'Equipment',
              children: (
                <EquipmentSummaryTable
                  equipment={matrix.data.equipment}
                  store={store}
                  onOpen={setOpen}
                />
              ),
            },
          ]}
        />
      )}
      <PairDrawer
        pair={open && open.store === store ? open.store.pairAt(open.row) : null}
        productionId={productionId}
        onClose={() => setOpenRow(null)}
      />
      <LazyWhatIfPanel open={whatIf} onClose={() => setWhatIf(false)} productionId={productionId} />
    </Card>
  );
}
