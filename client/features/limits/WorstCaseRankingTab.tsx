import { Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { rankingAttributeLabel, rankingFactorHeading } from '#core/labels/enum-labels.ts';
import { rankingChart } from '#core/charts/ranking-chart.ts';
import { ChartFigure } from '#client/shared/ChartFigure.tsx';
import { useNumberFormat } from '#client/shared/use-number-format.ts';
import type { OpenDerivation } from './DerivationDrawer.tsx';
import { byNumber, LimitCell } from './LimitCell.tsx';
import type { RankedProduct } from './limit-reports-api.ts';
import { useWorstCaseRanking } from './limit-reports-api.ts';
import { ReportTable } from './ReportTable.tsx';

const FACTORS = ['solubility', 'dose', 'toxicity', 'cleanability'] as const;

/** The scores of the highest-ranked products: the chart the worst-case ranking report prints. */
function RankingChart({ products }: { products: RankedProduct[] }) {
  const chart = useMemo(() => rankingChart(products), [products]);
  if (!products.some((p) => p.score !== null)) return null;
  return (
    <div style={{ marginBottom: 16 }}>
      <ChartFigure chart={chart} height={260} />
    </div>
  );
}

/** Products ranked worst first by the facility's risk scoring and selection criteria. */
export function WorstCaseRankingTab({ onOpen }: { onOpen: (open: OpenDerivation) => void }) {
  const query = useWorstCaseRanking();
  const numbers = useNumberFormat();
  const openScore = (row: RankedProduct) =>
    onOpen({
      title: `Risk score of ${row.id}`,
      subtitle: `Rank ${row.rank}. Each factor from the worst active of the product.`,
      sections: [{ key: 'score', label: 'Risk score', derivation: row.derivation }],
    });
  return (
    <ReportTable
      query={query}
      what="worst-case ranking"
      rowsOf={(data) => data.products}
      intro={(data) => (
        <>
          Scored by{' '}
          {data.formula ? `the risk formula “${data.formula.name}”` : 'the APIC worst-case rating'}{' '}
          and ranked by{' '}
          {data.criteria
            .map((c) => `${c.worst} ${rankingAttributeLabel(c.attribute)}`)
            .join(', then ')}
          . Click a score to see how it was reached.
          {data.overrides.map((o) => (
            <span key={`${o.kind}:${o.targetId}`}>
              <br />
              Override on {o.target}: {o.text}.
            </span>
          ))}
        </>
      )}
      chart={(data) => <RankingChart products={data.products} />}
      searchPlaceholder="Search products"
      searchOf={(row) => [row.id]}
      table={(data) => ({
        rowKey: 'id',
        columns: [
          { key: 'rank', title: 'Rank', dataIndex: 'rank', sorter: (a, b) => a.rank - b.rank },
          {
            key: 'id',
            title: 'Product',
            sorter: (a, b) => a.id.localeCompare(b.id),
            render: (_: unknown, row: RankedProduct) => (
              <>
                {row.id}{' '}
                {Object.entries(data.perEquipment)
                  .filter(([, worst]) => worst === row.id)
                  .map(([item]) => (
                    <Tag key={item}>worst case on {item}</Tag>
                  ))}
                {data.overrides
                  .filter((o) => o.product === row.id)
                  .map((o) => (
                    <Tag key={`${o.kind}:${o.targetId}`} color="orange" title={o.text}>
                      chosen worst case on {o.target} (override)
                    </Tag>
                  ))}
              </>
            ),
          },
          {
            key: 'score',
            title: 'Risk score (points)',
            sorter: byNumber<RankedProduct>((row) => row.score),
            filters: [
              { text: 'Scored', value: 'scored' },
              { text: 'Not scored', value: 'missing' },
            ],
            onFilter: (value, row) => (value === 'scored') === (row.score !== null),
            render: (_: unknown, row: RankedProduct) =>
              row.score === null ? (
                <Typography.Link onClick={() => openScore(row)}>not scored</Typography.Link>
              ) : (
                <LimitCell
                  value={row.score}
                  unit="points"
                  label={`Risk score of ${row.id}`}
                  onOpen={() => openScore(row)}
                />
              ),
          },
          ...FACTORS.map((factor) => ({
            key: factor,
            title: rankingFactorHeading(factor),
            sorter: byNumber<RankedProduct>((row) => row.scores[factor] ?? null),
            render: (_: unknown, row: RankedProduct) => {
              const score = row.scores[factor];
              return score === undefined ? '—' : numbers.number(score);
            },
          })),
          {
            key: 'lowestMaco',
            title: 'Lowest MACO (mg)',
            sorter: byNumber<RankedProduct>((row) => row.lowestMaco),
            render: (_: unknown, row: RankedProduct) => (
              <LimitCell value={row.lowestMaco} unit="mg" label="" onOpen={null} />
            ),
          },
        ],
      })}
    />
  );
}
