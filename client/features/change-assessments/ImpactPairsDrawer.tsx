import { Drawer } from 'antd';
import { criteriaSentence } from '#core/assessments/criteria-sentence.ts';
import type { TImpactItem } from '#core/schemas/change-assessments.schemas.ts';
import { formatChange } from '#client/shared/limits/what-if-format.ts';
import { limitLines } from '#client/shared/change-assessments/impact-format.ts';
import { useNumberFormat } from '#client/shared/use-number-format.ts';
import { ImpactPairsTable } from './ImpactPairsTable.tsx';

/** The pairs behind one impact item (its previous product's pairs), largest change first. */
export function ImpactPairsDrawer(props: {
  assessmentId: number;
  item: TImpactItem;
  onClose: () => void;
}) {
  const { item } = props;
  const { digits } = useNumberFormat();
  const change = (value: number | null) => (
    <span style={value !== null && value < 0 ? { color: 'var(--ant-color-error)' } : undefined}>
      {formatChange(value)}
    </span>
  );
  return (
    <Drawer open size={900} title={`Pairs of ${item.subject}`} onClose={props.onClose}>
      <ImpactPairsTable
        assessmentId={props.assessmentId}
        filter={{ previous: item.subject }}
        emptyText="No pairs are listed for this item"
        columns={[
          { key: 'previous', dataIndex: 'previous', title: 'Previous product' },
          { key: 'next', dataIndex: 'next', title: 'Next product' },
          {
            key: 'limits',
            title: 'Before → after',
            render: (_, pair) =>
              limitLines({ ...pair, units: item.units }).map((line) => (
                <div key={line}>{line}</div>
              )),
          },
          {
            key: 'why',
            title: 'Criteria before → after',
            render: (_, pair) => criteriaSentence(pair, digits) ?? '—',
          },
          { key: 'maco', title: 'MACO', render: (_, pair) => change(pair.macoChange) },
          { key: 'sal', title: 'SAL', render: (_, pair) => change(pair.salChange) },
          { key: 'swab', title: 'Swab', render: (_, pair) => change(pair.swabChange) },
          { key: 'rinse', title: 'Rinse', render: (_, pair) => change(pair.rinseChange) },
        ]}
      />
    </Drawer>
  );
}
