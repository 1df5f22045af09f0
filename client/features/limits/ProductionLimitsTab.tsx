import { Table, Typography } from 'antd';
import { useState } from 'react';
import type { OpenDerivation } from './DerivationDrawer.tsx';
import { limitColumns } from './EquipmentLimitsTab.tsx';
import { matching, SearchBox } from './LimitCell.tsx';
import type { ProductionLimitsAnswer } from './limit-reports-api.ts';
import { useProductionLimits } from './limit-reports-api.ts';
import { ProductionPairsTable } from './ProductionPairsTable.tsx';
import { ReportState } from './ReportState.tsx';

type Row = ProductionLimitsAnswer['productions'][number];

/** Each production's own MAC matrix: its governing MACO and lowest limits. */
export function ProductionLimitsTab({ onOpen }: { onOpen: (open: OpenDerivation) => void }) {
  const query = useProductionLimits();
  const [search, setSearch] = useState('');
  const data = query.data;
  return (
    <ReportState
      query={query}
      isEmpty={!data || data.productions.length === 0}
      what="production limits"
    >
      {data ? (
        <>
          <Typography.Paragraph type="secondary">
            For each production, the pairs of its own products on its own equipment: the governing
            (lowest) MACO and the lowest surface, swab and rinse limits. Click a number to see how
            it was reached; expand a production for each of its pairs.
          </Typography.Paragraph>
          <SearchBox placeholder="Search productions" onSearch={setSearch} />
          <Table<Row>
            rowKey="id"
            size="small"
            dataSource={matching(data.productions, search, (row) => [row.name])}
            pagination={{ defaultPageSize: 20, showSizeChanger: true }}
            locale={{ emptyText: 'No production matches' }}
            expandable={{
              expandedRowRender: (row) => (
                <ProductionPairsTable
                  productionId={row.id}
                  productionName={row.name}
                  onOpen={onOpen}
                />
              ),
              rowExpandable: (row) => row.pairCount > 0,
            }}
            columns={[
              {
                key: 'name',
                title: 'Production',
                dataIndex: 'name',
                sorter: (a, b) => a.name.localeCompare(b.name),
              },
              { key: 'products', title: 'Products', dataIndex: 'productCount' },
              { key: 'equipment', title: 'Equipment', dataIndex: 'equipmentCount' },
              {
                key: 'pairs',
                title: 'Pairs',
                dataIndex: 'pairCount',
                sorter: (a, b) => a.pairCount - b.pairCount,
              },
              ...limitColumns<Row>(
                data.units,
                (row) => row.explanations,
                (row) => row.name,
                onOpen,
              ),
            ]}
          />
        </>
      ) : null}
    </ReportState>
  );
}
