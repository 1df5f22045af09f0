import { useNumberFormat } from '#client/shared/use-number-format.ts';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { REPEAT_KIND_LABELS } from '#core/labels/enum-labels.ts';
import {
  Alert,
  Button,
  Card,
  Flex,
  Form,
  InputNumber,
  Radio,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import {
  MICROBIAL_CENSORING,
  MICROBIAL_KIND_LABELS,
  MICROBIAL_UNITS,
  type TMicrobialCensoring,
  type TMicrobialJudgement,
  type TMicrobialKind,
  type TMicrobialResult,
  type TRun,
  type TRunMicrobial,
} from '#core/schemas/verification.schemas.ts';
import { judgeMicrobial } from '#core/verification/judge-microbial.ts';
import { showSaveError } from '#client/api/form-errors.ts';
import { LoadErrorAlert } from '#client/shared/LoadErrorAlert.tsx';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { FacilityDateInput } from '#client/shared/facility-date-inputs.tsx';
import { CorrectResultDialog } from './CorrectResultDialog.tsx';
import {
  InvalidatedTag,
  useResultInvestigations,
  type ResultForInvestigation,
} from './result-investigation.tsx';
import { ReferenceSelect } from '#client/shared/master-data/ReferenceSelect.tsx';
import { referencedDef } from '#client/shared/master-data/entity-registry.ts';
import { useCorrectMicrobial, useEnterMicrobial, useRunMicrobial } from './microbial-api.ts';
import { validatedValues } from '#client/shared/validated-values.ts';

/*
 * Microbial results of a run (core/verification/README.md, "Microbial results"): the policy
 * version the run is judged against, the results with their Pass / Alert / Fail, and an entry
 * sized for a tablet whose preview is the judgement the server will save (the same core
 * function, with the limit the server computed for the location and test).
 */

const COLOURS: Record<TMicrobialJudgement['judgement'], string> = {
  Pass: 'green',
  Alert: 'orange',
  Fail: 'red',
};
const CENSORING_LABELS: Record<TMicrobialCensoring, string> = {
  '=': '=',
  '< LOD': '< LOD (no growth)',
  '> upper limit': '> upper limit (TNTC)',
};
const RINSE = 'rinse';

export function MicrobialJudgementTag({ judgement }: { judgement: TMicrobialJudgement }) {
  const percent =
    judgement.percentOfLimit === null
      ? ''
      : ` ${judgement.censoredBelow ? '≤ ' : ''}${judgement.percentOfLimit.toFixed(1)} % of limit`;
  return (
    <Tag
      color={COLOURS[judgement.judgement]}
      data-testid="microbial-judgement"
      style={{ fontSize: 14, padding: '2px 8px' }}
    >
      {judgement.judgement}
      {percent}
    </Tag>
  );
}

interface EntryValues {
  where?: string;
  kind?: TMicrobialKind;
  microbialMethodId?: number | null;
  censoring?: TMicrobialCensoring;
  rawValue?: number | null;
  readOn?: string;
}

const locationOf = (microbial: TRunMicrobial, where: string | undefined) =>
  microbial.locations.find((l) => String(l.samplingLocationId ?? RINSE) === where);

/** The judgement the server will save for what is typed, or null while something is missing. */
function preview(microbial: TRunMicrobial, entry: EntryValues | undefined) {
  if (!entry?.kind || entry.rawValue === null || entry.rawValue === undefined) return null;
  const limit = locationOf(microbial, entry.where)?.limits.find((l) => l.kind === entry.kind);
  if (!limit) return null;
  return judgeMicrobial({
    kind: entry.kind,
    censoring: entry.censoring ?? '=',
    rawValue: entry.rawValue,
    limit: limit.limit,
    limitSource: limit.limitSource,
    alertLevelPercentage: microbial.policy.alertLevelPercentage,
  });
}

export function MicrobialResults(props: { run: TRun; canEnter: boolean; onConflict: () => void }) {
  const { run } = props;
  const microbial = useRunMicrobial(run.id);
  if (microbial.isError)
    return <LoadErrorAlert title="Could not load the microbial results" query={microbial} />;
  if (microbial.isPending) return <Card title="Microbial results" loading />;
  return <LoadedMicrobial {...props} microbial={microbial.data} />;
}

function LoadedMicrobial(props: {
  run: TRun;
  microbial: TRunMicrobial;
  canEnter: boolean;
  onConflict: () => void;
}) {
  const { run, microbial } = props;
  const { policy } = microbial;
  const [form] = Form.useForm<{ entry: EntryValues }>();
  const entry = Form.useWatch('entry', form);
  const save = useEnterMicrobial(run.id);
  // By id: after a reload the dialog reads the result's current version.
  const [editing, setEditing] = useState<{ resultId: number; mode: 'correct' | 'repeat' }>();
  const edited = microbial.results.find((r) => r.id === editing?.resultId);
  const where = locationOf(microbial, entry?.where);
  const kinds = where?.limits.map((l) => l.kind) ?? [];
  const judged = preview(microbial, entry);
  const canEnter = props.canEnter && policy.useMicrobialLimits;
  // The sample results' investigations, the same record and rule (FDA OOS guidance).
  const investigations = useResultInvestigations(run, props.canEnter);
  const numbers = useNumberFormat();
  const { formatDay } = useDateFormat();

  async function submit(): Promise<void> {
    const validated = await validatedValues(form);
    if (!validated) return;
    const values = validated.entry;
    try {
      await save.mutateAsync({
        results: [
          {
            key: 'entry',
            samplingLocationId: values.where === RINSE ? null : Number(values.where),
            kind: values.kind!,
            microbialMethodId: values.microbialMethodId ?? null,
            censoring: values.censoring ?? '=',
            rawValue: values.rawValue ?? 0,
            readAt: values.readOn ? `${values.readOn}T00:00:00Z` : null,
          },
        ],
      });
      form.resetFields();
    } catch (error) {
      showSaveError(error, form);
    }
  }

  const pinned =
    microbial.pinnedVersionNumber === null
      ? `Policy version ${policy.versionNumber} in force (pinned when the run starts)`
      : `Policy version ${microbial.pinnedVersionNumber}, pinned at run start`;
  return (
    <Card
      title="Microbial results"
      extra={<Tag data-testid="microbial-policy-version">{pinned}</Tag>}
    >
      <Flex vertical gap="middle">
        {!policy.useMicrobialLimits ? (
          <Alert
            type="info"
            showIcon
            title="The microbial limit policy of this run does not use microbial limits: no microbial results are taken."
          />
        ) : null}
        {microbial.plan.length > 0 ? (
          <Typography.Text type="secondary">
            Planned by the protocol:{' '}
            {microbial.plan
              .map(
                (p) =>
                  `${p.samplingLocationName} (${MICROBIAL_KIND_LABELS[p.kind]}${p.limit === null ? '' : `, limit ${numbers.quantity(p.limit, p.unit)}`})`,
              )
              .join('; ')}
          </Typography.Text>
        ) : null}
        <Table<TMicrobialResult>
          rowKey="id"
          size="middle"
          pagination={false}
          dataSource={microbial.results}
          locale={{ emptyText: 'No microbial results yet' }}
          columns={[
            { title: 'Where', dataIndex: 'samplingLocationName' },
            { title: 'Test', render: (_, r) => MICROBIAL_KIND_LABELS[r.kind] },
            {
              title: 'Reported',
              render: (_, r) => (
                <Typography.Text delete={r.invalidatedBy !== null}>
                  {`${r.censoring === '=' ? '' : `${r.censoring} `}${numbers.quantity(r.rawValue, r.unit)}`}
                </Typography.Text>
              ),
            },
            {
              title: 'Limit',
              render: (_, r) =>
                `${numbers.quantity(r.judgement.limit, r.unit)} (${r.judgement.limitSource})`,
            },
            {
              title: 'Judgement',
              render: (_, r) => (
                <Space wrap>
                  <MicrobialJudgementTag judgement={r.judgement} />
                  {r.supersededBy !== null ? <Tag>Superseded</Tag> : null}
                  {r.repeats ? (
                    <Tag>{`${REPEAT_KIND_LABELS[r.repeats.kind]}: ${r.repeats.reason}`}</Tag>
                  ) : null}
                  <InvalidatedTag result={forInvestigation(r)} />
                </Space>
              ),
            },
            { title: 'Read', render: (_, r) => formatDay(r.readAt?.slice(0, 10)) },
            {
              title: '',
              render: (_, r) =>
                r.supersededBy === null ? (
                  <Space>
                    {investigations.action(forInvestigation(r))}
                    {canEnter ? (
                      <>
                        <Button onClick={() => setEditing({ resultId: r.id, mode: 'correct' })}>
                          Correct
                        </Button>
                        <Button onClick={() => setEditing({ resultId: r.id, mode: 'repeat' })}>
                          Repeat
                        </Button>
                      </>
                    ) : null}
                  </Space>
                ) : null,
            },
          ]}
        />
        {canEnter ? (
          <Form
            form={form}
            layout="vertical"
            name="microbial-entry"
            initialValues={{ entry: { censoring: '=' } }}
          >
            <Flex wrap gap="middle" align="end">
              <Form.Item
                name={['entry', 'where']}
                label="Where"
                rules={[{ required: true, message: 'Choose where the sample was taken' }]}
              >
                <Select
                  size="large"
                  style={{ width: 240 }}
                  aria-label="Microbial sampling location"
                  options={microbial.locations.map((l) => ({
                    value: String(l.samplingLocationId ?? RINSE),
                    label: `${l.samplingLocationName}${l.roomGrade ? ` (grade ${l.roomGrade})` : ''}`,
                  }))}
                  onChange={() => form.setFieldValue(['entry', 'kind'], undefined)}
                />
              </Form.Item>
              <Form.Item
                name={['entry', 'kind']}
                label="Test"
                rules={[{ required: true, message: 'Choose the test' }]}
              >
                <Select
                  size="large"
                  style={{ width: 220 }}
                  aria-label="Microbial test"
                  options={kinds.map((kind) => ({
                    value: kind,
                    label: MICROBIAL_KIND_LABELS[kind],
                  }))}
                />
              </Form.Item>
              <Form.Item name={['entry', 'microbialMethodId']} label="Microbial method">
                <ReferenceSelect
                  def={referencedDef('microbialMethods')}
                  aria-label="Microbial method"
                />
              </Form.Item>
              <Form.Item name={['entry', 'censoring']} label="Reported as">
                <Radio.Group
                  size="large"
                  optionType="button"
                  buttonStyle="solid"
                  aria-label="Censoring of the microbial result"
                  options={MICROBIAL_CENSORING.map((value) => ({
                    value,
                    label: CENSORING_LABELS[value],
                  }))}
                />
              </Form.Item>
              <Form.Item
                name={['entry', 'rawValue']}
                label={`Count${entry?.kind ? ` (${MICROBIAL_UNITS[entry.kind]})` : ''}`}
                rules={[{ required: true, message: 'A count is required' }]}
              >
                <InputNumber
                  size="large"
                  min={0}
                  style={{ width: 160 }}
                  aria-label="Microbial count"
                />
              </Form.Item>
              <Form.Item name={['entry', 'readOn']} label="Read on">
                <FacilityDateInput size="large" width={180} aria-label="Read on" />
              </Form.Item>
              <Form.Item label="Judgement">
                <div style={{ minHeight: 40, display: 'flex', alignItems: 'center' }}>
                  {judged ? (
                    <MicrobialJudgementTag judgement={judged} />
                  ) : (
                    <Typography.Text type="secondary">—</Typography.Text>
                  )}
                </div>
              </Form.Item>
              <Form.Item>
                <Button
                  type="primary"
                  size="large"
                  loading={save.isPending}
                  onClick={() => void submit()}
                >
                  Save microbial result
                </Button>
              </Form.Item>
            </Flex>
          </Form>
        ) : null}
      </Flex>
      {edited && editing?.mode === 'correct' ? (
        <MicrobialCorrectDialog
          result={edited}
          onConflict={props.onConflict}
          onClose={() => setEditing(undefined)}
        />
      ) : null}
      {investigations.drawer}
      {edited && editing?.mode === 'repeat' ? (
        <MicrobialRepeatDialog run={run} result={edited} onClose={() => setEditing(undefined)} />
      ) : null}
    </Card>
  );
}

const forInvestigation = (result: TMicrobialResult): ResultForInvestigation => ({
  id: result.id,
  microbial: true,
  failing: result.judgement.judgement === 'Fail',
  invalidatedBy: result.invalidatedBy,
});

const labelOf = (result: TMicrobialResult) =>
  `${result.samplingLocationName} (${MICROBIAL_KIND_LABELS[result.kind]})`;

/** Censoring and count of a result, under `prefix` (the row key the server names problems by). */
function MicrobialCountInputs(props: { prefix: string[]; result: TMicrobialResult }) {
  return (
    <>
      <Form.Item name={[...props.prefix, 'censoring']} label="Reported as">
        <Radio.Group
          size="large"
          optionType="button"
          buttonStyle="solid"
          options={MICROBIAL_CENSORING.map((value) => ({ value, label: CENSORING_LABELS[value] }))}
        />
      </Form.Item>
      <Form.Item
        name={[...props.prefix, 'rawValue']}
        label={`Count (${props.result.unit})`}
        rules={[{ required: true, message: 'A count is required' }]}
      >
        <InputNumber
          size="large"
          min={0}
          style={{ width: 160 }}
          aria-label={`Count of ${labelOf(props.result)}`}
        />
      </Form.Item>
    </>
  );
}

interface CountValues {
  censoring: TMicrobialCensoring;
  rawValue: number | null;
}

/** A correction of the count (reason + version), as the run screen corrects a sample result. */
function MicrobialCorrectDialog(props: {
  result: TMicrobialResult;
  onConflict: () => void;
  onClose: () => void;
}) {
  const { result } = props;
  const correct = useCorrectMicrobial();
  return (
    <CorrectResultDialog<CountValues>
      title={`Correct: ${labelOf(result)}`}
      version={result.version}
      initialValues={{ censoring: result.censoring, rawValue: result.rawValue }}
      onConflict={props.onConflict}
      onClose={props.onClose}
      onSave={(values, change) =>
        correct.mutateAsync({
          id: result.id,
          body: { censoring: values.censoring, rawValue: values.rawValue ?? 0, ...change },
        })
      }
    >
      <MicrobialCountInputs prefix={[]} result={result} />
    </CorrectResultDialog>
  );
}

interface RepeatValues {
  repeatKind: 'retest' | 'reswab';
  entry: CountValues;
  reason: string;
}

/** A retest or re-swab: a new result of the same kind at the same place that supersedes it. */
function MicrobialRepeatDialog(props: {
  run: TRun;
  result: TMicrobialResult;
  onClose: () => void;
}) {
  const { result } = props;
  const [form] = Form.useForm<RepeatValues>();
  const enter = useEnterMicrobial(props.run.id);
  return (
    <ReasonDialog<RepeatValues>
      form={form}
      name="microbial-edit"
      title={`Retest or re-swab: ${labelOf(result)}`}
      okText="Save the repeat"
      initialValues={{
        repeatKind: 'reswab',
        entry: { censoring: result.censoring, rawValue: null },
      }}
      askReason
      onClose={props.onClose}
      onSubmit={(values) =>
        enter.mutateAsync({
          results: [
            {
              key: 'entry',
              samplingLocationId: result.samplingLocationId,
              kind: result.kind,
              microbialMethodId: result.microbialMethodId,
              censoring: values.entry.censoring,
              rawValue: values.entry.rawValue ?? 0,
              repeats: { resultId: result.id, kind: values.repeatKind, reason: values.reason },
            },
          ],
        })
      }
    >
      <Form.Item name="repeatKind" label="Kind">
        <Radio.Group
          optionType="button"
          options={[
            { value: 'retest', label: 'Retest (same sample)' },
            { value: 'reswab', label: 'New sample' },
          ]}
        />
      </Form.Item>
      <MicrobialCountInputs prefix={['entry']} result={result} />
    </ReasonDialog>
  );
}
