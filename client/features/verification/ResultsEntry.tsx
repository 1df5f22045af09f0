import {
  Alert,
  Button,
  Card,
  Descriptions,
  Flex,
  Form,
  Space,
  Typography,
  notification,
} from 'antd';
import { useState } from 'react';
import type { TJudgement, TRun, TSampleResult } from '#core/schemas/verification.schemas.ts';
import { isApiError } from '#client/api/api-error.ts';
import { showSaveError } from '#client/api/form-errors.ts';
import { CorrectSampleResultDialog } from './CorrectResultDialog.tsx';
import { DerivationDrawer } from './DerivationDrawer.tsx';
import { JudgementTag } from './JudgementTag.tsx';
import { RepeatResultDialog } from './RepeatResultDialog.tsx';
import {
  InvalidatedTag,
  useResultInvestigations,
  type ResultForInvestigation,
} from './result-investigation.tsx';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { REPEAT_KIND_LABELS } from '#core/labels/enum-labels.ts';
import { useNumberFormat } from '#client/shared/use-number-format.ts';
import { ResultInputs, TakenAtInput } from './result-inputs.tsx';
import {
  currentResult,
  filledResults,
  previewJudgement,
  rowFieldErrors,
  rowKey,
  sampleLabel,
  type PlanRow,
  type RowValues,
} from './result-rows.ts';
import { runCalls, useRunWrite } from './verification-api.ts';

type EntryValues = RowValues & { takenAt?: string | null };

interface FormValues {
  rows: Record<string, EntryValues | undefined>;
}

/** One card per planned sampling location: saved result and its judgement, or inputs to enter it. */
export function ResultsEntry({
  run,
  canEnter,
  onConflict,
}: {
  run: TRun;
  canEnter: boolean;
  onConflict: () => void;
}) {
  const [form] = Form.useForm<FormValues>();
  const [derivation, setDerivation] = useState<{
    title: string;
    judgement: TJudgement;
    isPreview: boolean;
  } | null>(null);
  const [repeating, setRepeating] = useState<number | null>(null);
  const investigations = useResultInvestigations(run, canEnter);
  // By id: after a reload the dialog reads the result's current version.
  const [correcting, setCorrecting] = useState<number | null>(null);
  const save = useRunWrite((scope, body: Parameters<typeof runCalls.enterResults>[2]) =>
    runCalls.enterResults(scope, run.id, body),
  );
  const open = run.plan.filter((row) => !currentResult(run, row));

  async function saveAll(): Promise<void> {
    const values = form.getFieldsValue(true) as FormValues;
    const rows = values.rows ?? {};
    const results = filledResults(open, rows).map((result) => ({
      ...result,
      takenAt: rows[result.key]?.takenAt ?? null,
    }));
    if (results.length === 0) {
      notification.warning({ title: 'Nothing to save', description: 'Enter a value first.' });
      return;
    }
    try {
      await save.mutateAsync({ results });
      form.resetFields();
    } catch (error) {
      const mapped = rowFieldErrors(isApiError(error) ? error.errors : undefined, run.plan);
      if (mapped.fields.length === 0) return showSaveError(error);
      form.setFields(mapped.fields as Parameters<typeof form.setFields>[0]);
      if (mapped.rest.length > 0)
        notification.error({
          title: 'Some results were not saved',
          description: mapped.rest.join('\n'),
        });
    }
  }

  const initialRows = Object.fromEntries(
    open.map((row) => [
      rowKey(row),
      {
        censoring: '=',
        unit: row.limitUnit,
        takenAt: new Date().toISOString(),
      } satisfies EntryValues,
    ]),
  );
  const repeated = run.results.find((result) => result.id === repeating);
  const corrected = run.results.find((result) => result.id === correcting);
  return (
    <Card title="Sample results">
      <Form form={form} layout="vertical" initialValues={{ rows: initialRows }}>
        <Flex vertical gap="middle">
          {run.plan.map((row) => (
            <PlanRowCard
              key={rowKey(row)}
              run={run}
              row={row}
              canEnter={canEnter}
              onDerivation={setDerivation}
              onRepeat={setRepeating}
              onCorrect={setCorrecting}
              investigation={investigations.action}
            />
          ))}
        </Flex>
      </Form>
      {canEnter && open.length > 0 ? (
        <Button
          type="primary"
          size="large"
          style={{ marginTop: 16 }}
          loading={save.isPending}
          onClick={() => void saveAll()}
        >
          Save results
        </Button>
      ) : null}
      {derivation ? <DerivationDrawer {...derivation} onClose={() => setDerivation(null)} /> : null}
      {repeated ? (
        <RepeatResultDialog run={run} result={repeated} onClose={() => setRepeating(null)} />
      ) : null}
      {investigations.drawer}
      {corrected ? (
        <CorrectSampleResultDialog
          run={run}
          result={corrected}
          onConflict={onConflict}
          onClose={() => setCorrecting(null)}
        />
      ) : null}
    </Card>
  );
}

function PlanRowCard(props: {
  run: TRun;
  row: PlanRow;
  canEnter: boolean;
  onDerivation: (value: { title: string; judgement: TJudgement; isPreview: boolean }) => void;
  onRepeat: (resultId: number) => void;
  onCorrect: (resultId: number) => void;
  investigation: ReturnType<typeof useResultInvestigations>['action'];
}) {
  const { run, row } = props;
  const key = rowKey(row);
  const saved = currentResult(run, row);
  const { formatDateTime } = useDateFormat();
  const numbers = useNumberFormat();
  const watched = Form.useWatch(['rows', key], Form.useFormInstance()) as RowValues | undefined;
  const preview = saved ? null : previewJudgement(row, watched ?? {});
  const label = sampleLabel(row);
  const history = run.results.filter(
    (r) =>
      r.supersededBy !== null &&
      r.samplingLocationId === row.samplingLocationId &&
      r.sampleType === row.sampleType,
  );
  return (
    <Card type="inner" title={label} aria-label={`Location ${label}`} size="small">
      <Descriptions
        size="small"
        column={{ xs: 1, md: 3 }}
        items={[
          { key: 'equipment', label: 'Equipment', children: row.equipmentName },
          { key: 'risk', label: 'Risk score', children: row.riskScore ?? '—' },
          {
            key: 'type',
            label: 'Sample type',
            children: row.sampleType === 'swab' ? 'Swab' : 'Rinse',
          },
          { key: 'method', label: 'Method', children: row.analyticalMethodName },
          {
            key: 'limit',
            label: 'Limit',
            children: row.limit === null ? 'No limit' : numbers.quantity(row.limit, row.limitUnit),
          },
        ]}
      />
      {row.methodCannotShowLimit ? (
        <Alert
          type="error"
          showIcon
          style={{ marginTop: 8 }}
          title={row.methodCannotShowLimit}
          description="A result by this method is never a pass here: use a method whose LOQ, corrected for recovery, is at or below the limit."
        />
      ) : null}
      {saved ? (
        <Space wrap style={{ marginTop: 8 }}>
          <Typography.Text strong delete={saved.invalidatedBy !== null}>
            {saved.censoring === '=' ? '' : `${saved.censoring} `}
            {numbers.quantity(saved.rawValue, saved.unit)}
          </Typography.Text>
          {saved.batchNumber ? (
            <Typography.Text>Sample number {saved.batchNumber}</Typography.Text>
          ) : null}
          {saved.takenAt ? (
            <Typography.Text type="secondary">
              Sampled {formatDateTime(saved.takenAt)}
            </Typography.Text>
          ) : null}
          {/* Who analysed the sample and when (21 CFR 211.194(a)(7)/(8)), as the laboratory's
              system reported them on import. */}
          {saved.analysedAt ? (
            <Typography.Text type="secondary">
              Analysed at {formatDateTime(saved.analysedAt)}
            </Typography.Text>
          ) : null}
          {saved.analyst ? (
            <Typography.Text type="secondary">Analyst {saved.analyst}</Typography.Text>
          ) : null}
          <JudgementTag judgement={saved.judgement} />
          {saved.repeats ? (
            <Typography.Text type="secondary">
              {REPEAT_KIND_LABELS[saved.repeats.kind]}: {saved.repeats.reason}
            </Typography.Text>
          ) : null}
          <Button
            onClick={() =>
              props.onDerivation({
                title: `Derivation: ${label}`,
                judgement: saved.judgement,
                isPreview: false,
              })
            }
          >
            Show derivation
          </Button>
          <InvalidatedTag result={forInvestigation(saved)} />
          {props.investigation(forInvestigation(saved))}
          {props.canEnter ? (
            <>
              <Button onClick={() => props.onCorrect(saved.id)}>Correct</Button>
              <Button onClick={() => props.onRepeat(saved.id)}>Retest / re-swab</Button>
            </>
          ) : null}
        </Space>
      ) : props.canEnter ? (
        <Flex wrap gap="middle" align="end" style={{ marginTop: 8 }}>
          <ResultInputs prefix={['rows', key]} sampleType={row.sampleType} label={label} />
          <TakenAtInput prefix={['rows', key]} label={label} />
          {preview ? (
            <Space style={{ marginBottom: 24 }}>
              <JudgementTag judgement={preview} prefix="Preview" />
              <Button
                onClick={() =>
                  props.onDerivation({
                    title: `Derivation: ${label}`,
                    judgement: preview,
                    isPreview: true,
                  })
                }
              >
                Show derivation
              </Button>
            </Space>
          ) : null}
        </Flex>
      ) : (
        <Typography.Text type="secondary">No result entered</Typography.Text>
      )}
      {history.map((old) => (
        <Typography.Paragraph key={old.id} type="secondary" delete style={{ margin: 0 }}>
          Superseded: {old.censoring === '=' ? '' : `${old.censoring} `}
          {numbers.quantity(old.rawValue, old.unit)}
          {old.batchNumber ? `, sample number ${old.batchNumber}` : ''}
          {old.invalidatedBy ? ` · Invalidated (investigation ${old.invalidatedBy.number})` : ''}
        </Typography.Paragraph>
      ))}
    </Card>
  );
}

const forInvestigation = (result: TSampleResult): ResultForInvestigation => ({
  id: result.id,
  microbial: false,
  failing: result.judgement.passed === false,
  invalidatedBy: result.invalidatedBy,
});
