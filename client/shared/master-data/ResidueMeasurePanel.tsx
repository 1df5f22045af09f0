import { Alert, Descriptions, Select, Spin } from 'antd';
import {
  residueMeasureAction,
  RESIDUE_MEASURE_LABELS,
  RESIDUE_MEASURES,
  type TResidueMeasure,
} from '#core/verification/residue-measure.ts';
import { usePermissions } from '../permissions.ts';
import { useReasonAction } from '../reason/use-reason-action.tsx';
import { useResidueMeasure, useSetResidueMeasure } from './residue-measure-api.ts';

/**
 * What the analytical method measures and how its results become mass of active (issue 32).
 * Shown with ResidueMeasure Get; a measure is offered with the right its change takes (Add from
 * the active, Delete back to it, else Modify), as the route is guarded: the choice changes how every later result is judged, so it takes a reason for the
 * audit trail (21 CFR 11.10(e)).
 */
export function ResidueMeasurePanel({ methodId }: { methodId: number }) {
  const permissions = usePermissions();
  const canRead = permissions.can('ResidueMeasure', 'Get');
  const query = useResidueMeasure(methodId, canRead);
  const current = query.data?.residueMeasure ?? 'active';
  const options = RESIDUE_MEASURES.map((value) => ({
    value,
    label: RESIDUE_MEASURE_LABELS[value],
    disabled:
      value !== current && !permissions.can('ResidueMeasure', residueMeasureAction(current, value)),
  }));
  const canChange = options.some((option) => option.value !== current && !option.disabled);
  const change = useSetResidueMeasure(methodId);
  const { ask, modal } = useReasonAction();
  if (!canRead) return null;

  function choose(measure: TResidueMeasure) {
    const current = query.data;
    if (!current || measure === current.residueMeasure) return;
    ask({
      title: 'Change what the method measures',
      okText: 'Change',
      description: `From “${current.label}” to “${RESIDUE_MEASURE_LABELS[measure]}”. Results entered afterwards are judged with it; results already judged keep their judgement.`,
      run: (reason) =>
        change.mutateAsync({ residueMeasure: measure, version: current.version, reason }),
    });
  }

  return (
    <section aria-label="What the method measures" style={{ marginBottom: 16 }}>
      <h4>What the method measures</h4>
      {query.isPending ? (
        <Spin />
      ) : query.isError ? (
        <Alert type="error" showIcon title="What the method measures could not be loaded." />
      ) : (
        <Descriptions size="small" column={1} bordered>
          <Descriptions.Item label="Measures">
            {canChange ? (
              <Select<TResidueMeasure>
                aria-label="Measures"
                style={{ minWidth: 240 }}
                value={query.data.residueMeasure}
                options={options}
                loading={change.isPending}
                onChange={choose}
              />
            ) : (
              query.data.label
            )}
          </Descriptions.Item>
          <Descriptions.Item label="Conversion to the active">
            {query.data.conversion}
          </Descriptions.Item>
        </Descriptions>
      )}
      {modal}
    </section>
  );
}
