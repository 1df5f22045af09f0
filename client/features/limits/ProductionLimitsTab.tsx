import type { OpenDerivation } from './DerivationDrawer.tsx';
import { limitColumns } from './limit-columns.tsx';
import type { ProductionLimitsAnswer } from './limit-reports-api.ts';
import { useProductionLimits } from './limit-reports-api.ts';
import { ProductionPairsTable } from './ProductionPairsTable.tsx';
import { ReportTable } from './ReportTable.tsx';

type Row = ProductionLimitsAnswer['productions'][number];

/** Each production's own MAC matrix: its governing MACO and lowest limits. */
export function ProductionLimitsTab({ onOpen }: { onOpen: (open: OpenDerivation) => void }) {
  const query = useProductionLimits();
  return (
    <ReportTable
      query={query}
      what="production limits"
      rowsOf={(data) => data.productions}
      intro={() => (
        <>
          For each production, the pairs of its own products on its own equipment: the governing
          (lowest) MACO and the lowest surface, swab and rinse limits. Click a number to see how it
          was reached; expand a production for each of its pairs.
        </>
      )}
      searchPlaceholder="Search productions"
      searchOf={(row) => [row.name]}
      table={(data) => ({
        rowKey: 'id',
        locale: { emptyText: 'No production matches' },
        expandable: {
          expandedRowRender: (row) => (
            <ProductionPairsTable productionId={row.id} productionName={row.name} onOpen={onOpen} />
          ),
          rowExpandable: (row) => row.pairCount > 0,
        },
        columns: [
          {
            key: 'name',
            title: 'Production',
            dataIndex: 'name',
            sorter: (a, b) => a.name.localeCompare(b.name),
          },
          { key: 'products', title: 'Products', dataIndex: 'productCount' },
          { key: 'equipment', title: 'Equipment', dataIndex: 'equipmentCount' },
          ...limitColumns<Row>(
            data.units,
            (row) => row.explanations,
            (row) => row.name,
            onOpen,
          ),
        ],
      })}
    />
  );
}
