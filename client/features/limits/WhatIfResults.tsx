import { Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { criteriaSentence } from '#core/assessments/criteria-sentence.ts';
import type { PairChange, StayingPair } from '#core/limits/limits.what-if.ts';
import { useNumberFormat } from '#client/shared/use-number-format.ts';
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

/**
 * Why no pair moves (issue 30): the pairs whose MACO and SAL stay while a criterion that does not
 * govern moves, each with its criteria before → after and the one that governs.
 */
export function WhyNothingMoves({ staying, count }: { staying: StayingPair[]; count: number }) {
  const { digits } = useNumberFormat();
  return (
    <section aria-label="Why no limit moves">
      <Typography.Title level={5}>No limit moves: why</Typography.Title>
      <Typography.Paragraph type="secondary">
        {`The changes move a criterion that does not govern on ${count} ${count === 1 ? 'pair' : 'pairs'}: each keeps its limit.`}
        {staying.length < count ? ` The first ${staying.length} are listed.` : ''}
      </Typography.Paragraph>
      <Table<StayingPair & { key: string }>
        size="small"
        aria-label="Pairs whose limits stay"
        columns={[
          { title: 'Previous', dataIndex: 'previous', key: 'previous', width: 140 },
          { title: 'Next', dataIndex: 'next', key: 'next', width: 140 },
          {
            title: 'Criteria before → after',
            key: 'why',
            render: (_: unknown, pair: StayingPair) => criteriaSentence(pair, digits),
          },
        ]}
        dataSource={staying.map((pair) => ({
          ...pair,
          key: `${pair.previous}\u0000${pair.next}`,
        }))}
        pagination={staying.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
      />
    </section>
  );
}
