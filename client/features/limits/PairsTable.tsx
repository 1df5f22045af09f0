import { Input, Select, Space, Table, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useDeferredValue, useMemo, useState } from 'react';
import { useNumberFormat } from '#client/shared/use-number-format.ts';
import { filterPairs, governingKeys, productNames } from './matrix-filter.ts';
import './mac-matrix.css';
import { criterionLabel } from './pair-explanation.ts';
import type { PairStore } from './pair-store.ts';

interface PairsTableProps {
  store: PairStore;
  onOpen: (row: number) => void;
}

/** A table row: the index of a pair in the store (the numbers stay in its typed arrays). */
interface Row {
  i: number;
}

/**
 * Rows scrolled at a time. The virtual list finds its window by walking the rows before it, so
 * a million rows cost ~75 ms a frame; windows of 25,000 scroll at the display's rate, and the
 * filters narrow a large matrix further.
 */
const WINDOW = 25_000;

const orNone = (value: number | undefined) =>
  value === undefined || Number.isNaN(value) ? Number.POSITIVE_INFINITY : value;

/** Every previous → next pair, virtualised: a 1,000-product facility has a million rows. */
export function PairsTable({ store, onOpen }: PairsTableProps) {
  const numbers = useNumberFormat();
  const [previous, setPrevious] = useState<string | undefined>();
  const [next, setNext] = useState<string | undefined>();
  const [governing, setGoverning] = useState<string | undefined>();
  const [text, setText] = useState('');
  // Typing stays responsive while a large matrix filters behind it.
  const deferredText = useDeferredValue(text);
  const rows = useMemo(
    () =>
      Array.from(
        filterPairs(store, { previous, next, governing, text: deferredText }),
        (i): Row => ({ i }),
      ),
    [store, previous, next, governing, deferredText],
  );
  const products = useMemo(
    () => productNames(store).map((name) => ({ label: name, value: name })),
    [store],
  );
  const criteria = useMemo(
    () =>
      governingKeys(store).map((key) => ({
        label: key === 'none' ? 'None available' : criterionLabel(key),
        value: key,
      })),
    [store],
  );

  const link = (i: number, text: string) => (
    <button type="button" className="matrix-link" onClick={() => onOpen(i)}>
      {text}
    </button>
  );

  const columns: TableProps<Row>['columns'] = [
    {
      key: 'previous',
      title: 'Previous product',
      width: 200,
      fixed: 'left',
      render: (_: unknown, { i }: Row) => store.productOf(store.previous[i] ?? 0),
    },
    {
      key: 'next',
      title: 'Next product',
      width: 200,
      render: (_: unknown, { i }: Row) => store.productOf(store.next[i] ?? 0),
    },
    {
      key: 'shared',
      title: 'Shared equipment',
      width: 140,
      render: (_: unknown, { i }: Row) => (
        <span title={store.sharedNames(i).join(', ')}>{store.sharedCount(i)}</span>
      ),
    },
    {
      key: 'area',
      title: 'Area',
      width: 150,
      render: (_: unknown, { i }: Row) => numbers.quantity(store.area[i] ?? 0, 'sqcm'),
    },
    {
      key: 'maco',
      title: 'MACO',
      width: 320,
      sorter: (a, b) => orNone(store.maco[a.i]) - orNone(store.maco[b.i]),
      render: (_: unknown, { i }: Row) => {
        const maco = store.maco[i] ?? Number.NaN;
        if (Number.isNaN(maco)) return link(i, 'no criterion');
        const active = store.governingActiveName(i);
        return (
          <>
            {link(i, numbers.quantity(maco, 'mg'))}
            <span className="matrix-tag">{criterionLabel(store.governingKey(i) ?? '')}</span>
            {active ? <span className="matrix-active">{active}</span> : null}
          </>
        );
      },
    },
    {
      key: 'sal',
      title: 'SAL',
      width: 180,
      sorter: (a, b) => orNone(store.sal[a.i]) - orNone(store.sal[b.i]),
      render: (_: unknown, { i }: Row) => {
        const sal = store.sal[i] ?? Number.NaN;
        if (Number.isNaN(sal)) return '—';
        return link(
          i,
          `${numbers.quantity(sal, 'mg/sqcm')}${store.salCapped[i] ? ' (capped)' : ''}`,
        );
      },
    },
  ];

  return (
    <>
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          aria-label="Previous product"
          placeholder="Previous product"
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          options={products}
          value={previous}
          onChange={(value?: string) => setPrevious(value)}
          style={{ width: 220 }}
        />
        <Select
          aria-label="Next product"
          placeholder="Next product"
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          options={products}
          value={next}
          onChange={(value?: string) => setNext(value)}
          style={{ width: 220 }}
        />
        <Select
          aria-label="Governing criterion"
          placeholder="Governing criterion"
          allowClear
          options={criteria}
          value={governing}
          onChange={(value?: string) => setGoverning(value)}
          style={{ width: 240 }}
        />
        <Input.Search
          aria-label="Search pairs"
          placeholder="Product, active or equipment"
          allowClear
          value={text}
          onChange={(event) => setText(event.target.value)}
          style={{ width: 260 }}
        />
        <Typography.Text type="secondary">
          {rows.length === store.length
            ? `${store.length} pairs`
            : `${rows.length} of ${store.length} pairs`}
        </Typography.Text>
      </Space>
      <Table<Row>
        virtual
        size="small"
        rowKey="i"
        columns={columns}
        dataSource={rows}
        pagination={
          rows.length > WINDOW
            ? {
                pageSize: WINDOW,
                showSizeChanger: false,
                showTotal: (total, [from, to]) => `Pairs ${from}–${to} of ${total}`,
              }
            : false
        }
        scroll={{ x: 1190, y: 560 }}
        locale={{ emptyText: 'No pair matches these filters' }}
      />
    </>
  );
}
