import { Form, Space } from 'antd';
import type { ReactNode } from 'react';
import type { TRun, TSampleResult } from '#core/schemas/verification.schemas.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { useEditBase } from '#client/shared/use-edit-base.ts';
import { JudgementTag } from './JudgementTag.tsx';
import { ResultInputs } from './result-inputs.tsx';
import { previewJudgement, sampleLabel, type PlanRow, type RowValues } from './result-rows.ts';
import { runCalls, useRunWrite, type ResultEditBody } from './verification-api.ts';

/**
 * The correction of a saved result, sample or microbial (core/verification/README.md): what is
 * typed, a reason, and the version of the result when the dialog opened (a live update of the
 * run does not move it). A 409 (changed by someone else) is said, the run reloads and the dialog
 * stays open with what was typed; the reloaded version is taken, so the next save carries it.
 */
export function CorrectResultDialog<V extends object>(props: {
  title: string;
  version: number;
  initialValues: V;
  onSave: (values: V, change: { reason: string; version: number }) => Promise<unknown>;
  onConflict: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const [form] = Form.useForm<V & { reason: string }>();
  const base = useEditBase(props.version);
  return (
    <ReasonDialog<V & { reason: string }>
      canSubmit={!base.settling}
      form={form}
      name="correct-result"
      title={props.title}
      okText="Save the correction"
      initialValues={props.initialValues as Partial<V & { reason: string }>}
      askReason
      onConflict={() => {
        base.follow();
        props.onConflict();
      }}
      onClose={props.onClose}
      onSubmit={({ reason, ...values }) =>
        props.onSave(values as unknown as V, { reason, version: base.version })
      }
    >
      {props.children}
    </ReasonDialog>
  );
}

/** A sample result corrected on the run screen, with the judgement the server will give it. */
export function CorrectSampleResultDialog(props: {
  run: TRun;
  result: TSampleResult;
  onConflict: () => void;
  onClose: () => void;
}) {
  const { run, result } = props;
  const save = useRunWrite((scope, change: { id: number; body: ResultEditBody }) =>
    runCalls.editResult(scope, change.id, change.body),
  );
  const row = run.plan.find(
    (p) => p.samplingLocationId === result.samplingLocationId && p.sampleType === result.sampleType,
  );
  const label = sampleLabel(result);
  return (
    <CorrectResultDialog<RowValues>
      title={`Correct: ${label}`}
      version={result.version}
      initialValues={{
        censoring: result.censoring,
        rawValue: result.rawValue,
        unit: result.unit,
        batchNumber: result.batchNumber,
      }}
      onConflict={props.onConflict}
      onClose={props.onClose}
      onSave={(values, change) =>
        save.mutateAsync({
          id: result.id,
          body: {
            censoring: values.censoring ?? result.censoring,
            rawValue: values.rawValue ?? result.rawValue,
            unit: values.unit ?? result.unit,
            batchNumber: values.batchNumber?.trim() ? values.batchNumber.trim() : null,
            ...change,
          },
        })
      }
    >
      <ResultInputs
        prefix={[]}
        sampleType={result.sampleType}
        label={`the correction of ${label}`}
        required
      />
      {row ? <CorrectionPreview row={row} /> : null}
    </CorrectResultDialog>
  );
}

function CorrectionPreview({ row }: { row: PlanRow }) {
  const values = Form.useWatch((all: RowValues) => all, Form.useFormInstance());
  const judged = values ? previewJudgement(row, values) : null;
  return judged ? (
    <Space style={{ marginBottom: 16 }}>
      <JudgementTag judgement={judged} prefix="Preview" />
    </Space>
  ) : null;
}
