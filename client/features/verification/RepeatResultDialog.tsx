import { Form, Radio } from 'antd';
import type { TRun, TSampleResult } from '#core/schemas/verification.schemas.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { ResultInputs, TakenAtInput } from './result-inputs.tsx';
import { sampleLabel, type RowValues } from './result-rows.ts';
import { runCalls, useRunWrite } from './verification-api.ts';

// The inputs sit under 'repeat', the row's key: the server's 'repeat.<field>' problems land on them.
interface RepeatValues {
  kind: 'retest' | 'reswab';
  repeat: RowValues & { takenAt?: string | null };
  reason: string;
}

/**
 * A retest (the same sample analysed again, keeping its sample number) or a re-swab (a new
 * sample) of a saved result: a new result that supersedes it, with the reason why.
 */
export function RepeatResultDialog(props: {
  run: TRun;
  result: TSampleResult;
  onClose: () => void;
}) {
  const { run, result } = props;
  const [form] = Form.useForm<RepeatValues>();
  const kind = Form.useWatch('kind', form);
  const save = useRunWrite((scope, body: Parameters<typeof runCalls.enterResults>[2]) =>
    runCalls.enterResults(scope, run.id, body),
  );
  const label = sampleLabel(result);
  return (
    <ReasonDialog<RepeatValues>
      form={form}
      name="repeat-result"
      title={`Retest or re-swab: ${label}`}
      okText="Save the repeat"
      initialValues={{
        kind: 'retest',
        repeat: {
          censoring: '=',
          unit: result.unit,
          batchNumber: result.batchNumber,
          takenAt: new Date().toISOString(),
        },
      }}
      askReason
      onClose={props.onClose}
      onSubmit={(values) =>
        save.mutateAsync({
          results: [
            {
              key: 'repeat',
              samplingLocationId: result.samplingLocationId,
              sampleType: result.sampleType,
              analyticalMethodId: result.analyticalMethodId,
              censoring: values.repeat.censoring ?? '=',
              rawValue: values.repeat.rawValue ?? 0,
              unit: values.repeat.unit ?? result.unit,
              batchNumber: values.repeat.batchNumber?.trim()
                ? values.repeat.batchNumber.trim()
                : null,
              // A retest analyses the same sample again: it was taken when the original was.
              takenAt: values.kind === 'retest' ? result.takenAt : (values.repeat.takenAt ?? null),
              repeats: { resultId: result.id, kind: values.kind, reason: values.reason },
            },
          ],
        })
      }
    >
      <Form.Item name="kind" label="Kind">
        <Radio.Group
          optionType="button"
          options={[
            { value: 'retest', label: 'Retest (same sample)' },
            { value: 'reswab', label: 'Re-swab (new sample)' },
          ]}
        />
      </Form.Item>
      <ResultInputs
        prefix={['repeat']}
        sampleType={result.sampleType}
        label={`the repeat of ${label}`}
        required
      />
      {kind === 'reswab' ? (
        <TakenAtInput prefix={['repeat']} label={`the repeat of ${label}`} />
      ) : null}
    </ReasonDialog>
  );
}
