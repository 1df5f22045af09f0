import { Checkbox, Empty, Flex, Input, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import {
  COVERAGE_LABELS,
  COVERAGE_STATES,
  type TCoverageCell,
  type TCoverageState,
} from '#core/schemas/cleaning-assessments.schemas.ts';
import {
  cellSummary,
  COVERAGE_COLOURS,
  COVERAGE_MARKS,
  layoutCoverage,
  type CoverageRow,
} from './coverage-matrix.ts';
import { EvidenceDrawer } from './EvidenceDrawer.tsx';

const CELL_WIDTH = 64;
const PRODUCT_WIDTH = 220;

function CellBox({ cell, onOpen }: { cell: TCoverageCell; onOpen: (cell: TCoverageCell) => void }) {
  return (
    <Tooltip title={cellSummary(cell)}>
      <button
        type="button"
        className="coverage-cell"
        data-state={cell.state}
        aria-label={cellSummary(cell)}
        onClick={() => onOpen(cell)}
        style={{
          width: 40,
          height: 24,
          border: 'none',
          borderRadius: 4,
          cursor: 'pointer',
          color: '#fff',
          fontWeight: 600,
          background: COVERAGE_COLOURS[cell.state],
        }}
      >
        {COVERAGE_MARKS[cell.state]}
      </button>
    </Tooltip>
  );
}

/**
 * The coverage matrix product × train: each cell coloured by how it is covered, its evidence a
 * click away. Rows are virtualised, so a 1,000-product facility scrolls as a small one does.
 */
export function CoverageMatrix({
  cells,
  evaluationId,
}: {
  cells: readonly TCoverageCell[];
  evaluationId: number;
}) {
  const [states, setStates] = useState<TCoverageState[]>([]);
  const [text, setText] = useState('');
  const [open, setOpen] = useState<TCoverageCell | null>(null);
  const layout = useMemo(() => layoutCoverage(cells, { states, text }), [cells, states, text]);

  const columns: TableColumnsType<CoverageRow> = [
    {
      title: 'Product',
      dataIndex: 'product',
      key: 'product',
      width: PRODUCT_WIDTH,
      fixed: 'left',
      ellipsis: true,
    },
    ...layout.trains.map((train, index) => ({
      title: (
        <Tooltip title={train.name}>
          <span>{train.name}</span>
        </Tooltip>
      ),
      key: `train-${train.id}`,
      width: CELL_WIDTH,
      ellipsis: true,
      align: 'center' as const,
      render: (_: unknown, row: CoverageRow) => {
        const cell = row.cells[index];
        return cell ? <CellBox cell={cell} onOpen={setOpen} /> : null;
      },
    })),
  ];

  return (
    <Flex vertical gap="small">
      <Space wrap>
        <Input.Search
          allowClear
          placeholder="Product or train"
          aria-label="Search the coverage matrix"
          style={{ width: 240 }}
          onSearch={setText}
          onChange={(event) => {
            if (!event.target.value) setText('');
          }}
        />
        <Checkbox.Group
          aria-label="Coverage states shown"
          value={states}
          onChange={(value) => setStates(value)}
          options={COVERAGE_STATES.map((state) => ({
            value: state,
            label: (
              <Space size={4}>
                <Tag color={COVERAGE_COLOURS[state]} style={{ marginInlineEnd: 0 }}>
                  {COVERAGE_MARKS[state]}
                </Tag>
                {COVERAGE_LABELS[state]} ({layout.counts[state].toLocaleString('en-US')})
              </Space>
            ),
          }))}
        />
      </Space>
      {layout.rows.length === 0 ? (
        <Empty
          description={
            cells.length === 0
              ? 'No product is made on any equipment train yet: nothing to cover.'
              : 'No cell matches the filter.'
          }
        />
      ) : (
        <>
          <Typography.Text type="secondary">
            {layout.rows.length.toLocaleString('en-US')} products ×{' '}
            {layout.trains.length.toLocaleString('en-US')} trains. Click a cell for its evidence.
          </Typography.Text>
          <Table<CoverageRow>
            aria-label="Coverage matrix"
            size="small"
            bordered
            virtual
            rowKey="productId"
            columns={columns}
            dataSource={layout.rows}
            pagination={false}
            scroll={{ x: PRODUCT_WIDTH + CELL_WIDTH * layout.trains.length, y: 560 }}
          />
        </>
      )}
      {open ? (
        <EvidenceDrawer cell={open} evaluationId={evaluationId} onClose={() => setOpen(null)} />
      ) : null}
    </Flex>
  );
}
