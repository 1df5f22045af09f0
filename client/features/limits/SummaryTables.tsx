import { Button, Table } from 'antd';
import type { ContractEquipment, ContractProduct } from '#core/limits/contract-output.ts';
import { useNumberFormat } from '#client/shared/use-number-format.ts';
import type { PairStore } from './pair-store.ts';

interface SummaryProps {
  store: PairStore;
  onOpen: (row: number) => void;
}

function PairLink({
  row,
  text,
  onOpen,
}: {
  row: number;
  text: string;
  onOpen: (row: number) => void;
}) {
  if (!text) return <>—</>;
  if (row < 0) return <>{text}</>;
  return (
    <Button type="link" size="small" style={{ padding: 0 }} onClick={() => onOpen(row)}>
      {text}
    </Button>
  );
}

/** The previous product's pair whose SAL is the given one (it may not be its lowest-MACO pair). */
function rowOfLowestSal(store: PairStore, product: ContractProduct): number {
  const p = store.products.find(product.id);
  const sal = product.lowestSal?.value;
  if (p < 0 || sal === undefined) return -1;
  for (let i = 0; i < store.length; i++)
    if (store.previous[i] === p && store.sal[i] === sal) return i;
  return -1;
}

/** Product-wise limits: each previous product's lowest MACO and SAL and its worst next product. */
export function ProductSummaryTable({
  products,
  store,
  onOpen,
}: SummaryProps & { products: ContractProduct[] }) {
  const numbers = useNumberFormat();
  return (
    <Table<ContractProduct>
      rowKey="id"
      size="small"
      dataSource={products}
      pagination={{ defaultPageSize: 20, showSizeChanger: true }}
      columns={[
        { key: 'id', title: 'Product', dataIndex: 'id' },
        {
          key: 'lowestMaco',
          title: 'Lowest MACO',
          render: (_: unknown, product: ContractProduct) => (
            <PairLink
              text={numbers.quantityOf(product.lowestMaco)}
              row={product.worstNext ? store.find(product.id, product.worstNext) : -1}
              onOpen={onOpen}
            />
          ),
        },
        {
          key: 'lowestSal',
          title: 'Lowest SAL',
          render: (_: unknown, product: ContractProduct) => (
            <PairLink
              text={numbers.quantityOf(product.lowestSal)}
              row={rowOfLowestSal(store, product)}
              onOpen={onOpen}
            />
          ),
        },
        { key: 'worstNext', title: 'Worst next product', dataIndex: 'worstNext' },
      ]}
    />
  );
}

/** Equipment-wise limits: each item's lowest SAL and the pair that sets it. */
export function EquipmentSummaryTable({
  equipment,
  store,
  onOpen,
}: SummaryProps & { equipment: ContractEquipment[] }) {
  const numbers = useNumberFormat();
  return (
    <Table<ContractEquipment>
      rowKey="id"
      size="small"
      dataSource={equipment}
      pagination={{ defaultPageSize: 20, showSizeChanger: true }}
      columns={[
        { key: 'id', title: 'Equipment', dataIndex: 'id' },
        {
          key: 'lowestSal',
          title: 'Lowest SAL',
          render: (_: unknown, item: ContractEquipment) => (
            <PairLink
              text={numbers.quantityOf(item.lowestSal)}
              row={item.governingPair ? store.find(...item.governingPair) : -1}
              onOpen={onOpen}
            />
          ),
        },
        {
          key: 'governingPair',
          title: 'Governing pair',
          render: (_: unknown, item: ContractEquipment) =>
            item.governingPair ? `${item.governingPair[0]} → ${item.governingPair[1]}` : '—',
        },
      ]}
    />
  );
}
