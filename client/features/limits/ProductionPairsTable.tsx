import { unitLabel } from '#core/units/format-number.ts';
import { Skeleton, Table } from 'antd';
import type { OpenDerivation } from './DerivationDrawer.tsx';
import { pairDerivation } from './DerivationDrawer.tsx';
import { byNumber, LimitCell } from './LimitCell.tsx';
import type { ProductionPair } from './limit-reports-api.ts';
import { useExplainProductionPair, useProductionPairs } from './limit-reports-api.ts';
import { criterionLabel } from './pair-explanation.ts';
import { SampleLimitBasisTag } from './SampleLimitBasisTag.tsx';

const NUMBERS = [
  ['maco', 'MACO'],
  ['sal', 'SAL'],
  ['swab', 'Swab limit'],
  ['rinse', 'Rinse limit'],
] as const;

/** The pairs of one production, each number opening its derivation on the production's data. */
export function ProductionPairsTable({
  productionId,
  productionName,
  onOpen,
}: {
  productionId: number;
  productionName: string;
  onOpen: (open: OpenDerivation) => void;
}) {
  const query = useProductionPairs(productionId);
  const explain = useExplainProductionPair();
  if (query.isPending) return <Skeleton active />;
  if (query.isError) return <>{query.error.message}</>;
  const { pairs, units } = query.data;
  const open = (pair: ProductionPair, key: (typeof NUMBERS)[number][0]) => () => {
    // The HTTP client already tells the user when the call fails.
    explain(productionId, pair.previous, pair.next).then(
      (explanation) => onOpen(pairDerivation(explanation, key)),
      () => undefined,
    );
  };
  return (
    <Table<ProductionPair>
      size="small"
      rowKey={(p) => `${p.previous}\u0000${p.next}`}
      dataSource={pairs}
      pagination={{ defaultPageSize: 10, hideOnSinglePage: true }}
      locale={{ emptyText: 'No two products of this production share its equipment' }}
      // Nine limits side by side: the pairs scroll, their previous product stays in sight.
      scroll={{ x: 'max-content' }}
      columns={[
        { key: 'previous', title: 'Previous', dataIndex: 'previous', fixed: 'left' },
        { key: 'next', title: 'Next', dataIndex: 'next' },
        {
          key: 'governing',
          title: 'Governing',
          render: (_: unknown, p: ProductionPair) =>
            p.governing ? criterionLabel(p.governing) : '—',
        },
        ...NUMBERS.map(([key, title]) => ({
          key,
          title: `${title} (${unitLabel(units[key])})`,
          sorter: byNumber<ProductionPair>((p) => p[key]),
          render: (_: unknown, p: ProductionPair) => (
            <>
              <LimitCell
                value={p[key]}
                unit={units[key]}
                label={`${title} of ${p.previous} → ${p.next} in ${productionName}`}
                onOpen={open(p, key)}
              />
              {key === 'swab' || key === 'rinse' ? (
                <SampleLimitBasisTag basis={p[`${key}Basis`] ?? undefined} />
              ) : null}
            </>
          ),
        })),
      ]}
    />
  );
}
