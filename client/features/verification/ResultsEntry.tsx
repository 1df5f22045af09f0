import {
  Alert,
  Button,
  Card,
  Descriptions,
  Flex,
  Form,
  Space,
  Tag,
  Typography,
  notification,
} from 'antd';
import { useState } from 'react';
import type { TJudgement, TRun, TSampleResult } from '#core/schemas/verification.schemas.ts';
import { isApiError } from '#client/api/api-error.ts';
import { showSaveError } from '#client/api/form-errors.ts';
import { CorrectSampleResultDialog } from './CorrectResultDialog.tsx';
import { DerivationDrawer } from './DerivationDrawer.tsx';
import { InvestigationDrawer } from './InvestigationDrawer.tsx';
import { investigationCalls, useInvestigationWrite } from './investigation-api.ts';
import { JudgementTag } from './JudgementTag.tsx';
import { RepeatResultDialog } from './RepeatResultDialog.tsx';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { ResultInputs, TakenAtInput } from './result-inputs.tsx';
import {
  currentResult,
  filledResults,
  previewJudgement,
  rowFieldErrors,
  rowKey,
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
  const [investigating, setInvestigating] = useState<number | null>(null);
  const openInvestigation = useInvestigationWrite(run.id, (scope, resultId: number) =>
    investigationCalls.open(scope, resultId, {}),
  );
  // An out-of-specification result is set aside only through its investigation (FDA OOS guidance).
  const onInvestigate = (result: TSampleResult) => {
    const known = run.investigations.find((i) => i.resultId === result.id);
    if (known) return setInvestigating(known.id);
    openInvestigation
      .mutateAsync(result.id)
      .then((opened) => setInvestigating(opened.id))
      .catch(showSaveError);
  };
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
  const investigation = run.investigations.find((i) => i.id === investigating);
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
              onInvestigate={onInvestigate}
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
      {investigation ? (
        <InvestigationDrawer
          run={run}
          investigation={investigation}
          canEdit={canEnter}
          onClose={() => setInvestigating(null)}
        />
      ) : null}
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
  onInvestigate: (result: TSampleResult) => void;
}) {
  const { run, row } = props;
  const key = rowKey(row);
  const saved = currentResult(run, row);
  const { formatDateTime } = useDateFormat();
  const watched = Form.useWatch(['rows', key], Form.useFormInstance()) as RowValues | undefined;
  const preview = saved ? null : previewJudgement(row, watched ?? {});
  const label = `${row.samplingLocationName} (${row.sampleType})`;
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
            children: row.limit === null ? 'No limit' : `${row.limit} ${row.limitUnit}`,
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
            {saved.rawValue} {saved.unit}
          </Typography.Text>
          {saved.batchNumber ? <Typography.Text>Batch {saved.batchNumber}</Typography.Text> : null}
          {saved.takenAt ? (
            <Typography.Text type="secondary">
              Sampled {formatDateTime(saved.takenAt)}
            </Typography.Text>
          ) : null}
          <JudgementTag judgement={saved.judgement} />
          {saved.repeats ? (
            <Typography.Text type="secondary">
              {saved.repeats.kind === 'retest' ? 'Retest' : 'Re-swab'}: {saved.repeats.reason}
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
          {saved.invalidatedBy ? <Invalidated result={saved} /> : null}
          {saved.judgement.passed === false && !saved.invalidatedBy ? (
            investigationOf(run, saved) ? (
              <Button onClick={() => props.onInvestigate(saved)}>
                Investigation {investigationOf(run, saved)!.number}
              </Button>
            ) : props.canEnter ? (
              <Button danger onClick={() => props.onInvestigate(saved)}>
                Open investigation
              </Button>
            ) : null
          ) : null}
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
          {old.rawValue} {old.unit}
          {old.batchNumber ? `, batch ${old.batchNumber}` : ''}
          {old.invalidatedBy ? ` · Invalidated (investigation ${old.invalidatedBy.number})` : ''}
        </Typography.Paragraph>
      ))}
    </Card>
  );
}

const investigationOf = (run: TRun, result: TSampleResult) =>
  run.investigations.find((i) => i.resultId === result.id);

/** A result an approved investigation invalidated: kept and shown, never counted. */
function Invalidated({ result }: { result: TSampleResult }) {
  return (
    <Tag color="default" data-testid={`invalidated-${result.id}`}>
      Invalidated (investigation {result.invalidatedBy!.number})
    </Tag>
  );
}
