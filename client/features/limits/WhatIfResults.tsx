import { Table, Tag } from 'antd';
import type { TableColumnsType } from 'antd';
import type { PairChange } from '#core/limits/limits.what-if.ts';
import { formatChange, formatLimit } from '#client/shared/limits/what-if-format.ts';

type Row = PairChange & { key: string };

const changeCell = (change: number | null) => (
  <span style={{ color: change !== null && change < 0 ? '#cf1322' : undefined }}>
    {formatChange(change)}
  </span>
);

const COLUMNS: TableColumnsType<Row> = [
  { title: 'Previous', dataIndex: 'previous', key: 'previous', width: 140, fixed: 'left' },
  { title: 'Next', dataIndex: 'next', key: 'next', width: 140 },
  {
    title: 'MACO (mg)',
    key: 'maco',
    render: (_: unknown, row: Row) =>
      `${formatLimit(row.macoBefore)} → ${formatLimit(row.macoAfter)}`,
  },
  {
    title: 'MACO change',
    key: 'macoChange',
    width: 110,
    render: (_: unknown, row: Row) => changeCell(row.macoChange),
  },
  {
    title: 'SAL (mg/cm²)',
    key: 'sal',
    render: (_: unknown, row: Row) =>
      `${formatLimit(row.salBefore)} → ${formatLimit(row.salAfter)}`,
  },
  {
    title: 'SAL change',
    key: 'salChange',
    width: 110,
    render: (_: unknown, row: Row) => changeCell(row.salChange),
  },
  {
    title: 'Flags',
    key: 'flags',
    render: (_: unknown, row: Row) => (
      <>
        {row.isNew ? <Tag color="blue">New pair</Tag> : null}
        {row.isLower ? <Tag color="orange">Lower than before</Tag> : null}
        {row.isNewlyBelow ? (
          <Tag color="red">Now below threshold</Tag>
        ) : row.isBelow ? (
          <Tag color="volcano">Below threshold</Tag>
        ) : null}
      </>
    ),
  },
];

/** The pairs the tried changes move, most important first (see compareLimits). */
export function WhatIfResults({ changes }: { changes: PairChange[] }) {
  return (
    <Table<Row>
      size="small"
      aria-label="Pairs that move"
      columns={COLUMNS}
      dataSource={changes.map((change) => ({
        ...change,
        key: `${change.previous}\u0000${change.next}`,
      }))}
      pagination={changes.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
      scroll={{ x: 'max-content' }}
    />
  );
}
