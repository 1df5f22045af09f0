import { Typography } from 'antd';
import { criteriaSentence } from '#core/assessments/criteria-sentence.ts';
import type { TImpactSummary } from '#core/schemas/change-assessments.schemas.ts';
import { nothingMoved } from '#client/shared/change-assessments/impact-format.ts';
import { useNumberFormat } from '#client/shared/use-number-format.ts';
import { ImpactPairsTable } from './ImpactPairsTable.tsx';

/**
 * Why the limits stay (issue 30): the pairs whose limit stays while a criterion that does not
 * govern moves, each with its criteria before → after and the criterion that governs.
 */
export function StayingPairs(props: { assessmentId: number; summary: TImpactSummary }) {
  const { digits } = useNumberFormat();
  const count = props.summary.criteriaMoved ?? 0;
  return (
    <section aria-label="Why the limits stay">
      <Typography.Title level={5}>
        {nothingMoved(props.summary) ? 'No limit moves: why' : 'Limits that stay'}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        {`The change moves a criterion that does not govern on ${count} ${count === 1 ? 'pair' : 'pairs'}: each keeps its limit.`}
      </Typography.Paragraph>
      <ImpactPairsTable
        assessmentId={props.assessmentId}
        filter={{ stays: true }}
        pageLimit={10}
        emptyText="No such pair is listed"
        columns={[
          { key: 'previous', dataIndex: 'previous', title: 'Previous product', width: 160 },
          { key: 'next', dataIndex: 'next', title: 'Next product', width: 160 },
          {
            key: 'why',
            title: 'Criteria before → after',
            render: (_, pair) => criteriaSentence(pair, digits),
          },
        ]}
      />
    </section>
  );
}
