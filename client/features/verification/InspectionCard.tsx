import {
  Alert,
  Button,
  Card,
  Descriptions,
  Flex,
  Form,
  Input,
  InputNumber,
  Radio,
  Tag,
} from 'antd';
import type { TInspectionSettings } from '#core/schemas/facility-rules.schemas.ts';
import type { TChecklistAnswer, TInspectionRecord } from '#core/schemas/run-inspection.schemas.ts';
import type { TRun } from '#core/schemas/verification.schemas.ts';
import { showSaveError } from '#client/api/form-errors.ts';
import { ReasonField } from '#client/shared/reason/ReasonDialog.tsx';
import { FacilityDateTimeInput } from '#client/shared/facility-date-inputs.tsx';
import { inspectionCalls, type InspectionBody } from './inspection-api.ts';
import { useRunWrite } from './verification-api.ts';
import { validatedValues } from '#client/shared/validated-values.ts';
import { useEditBase } from '#client/shared/use-edit-base.ts';

interface Values {
  inspectedAt?: string | null;
  lightLux?: number | null;
  checklist: { answer?: TChecklistAnswer }[];
  result?: 'Pass' | 'Fail';
  notes?: string | null;
  evidenceReference?: string | null;
  reason?: string;
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/**
 * The visual inspection of a run, at the line on a tablet: the checklist of the cleaning
 * inspection settings the run pinned when its cleaning started, the light, the result, notes,
 * the photo evidence reference, and the second person's verification. Large inputs; the
 * server's problems land on their fields.
 */
export function InspectionCard(props: { run: TRun; canEdit: boolean; onConflict: () => void }) {
  const { run } = props;
  const { settings, settingsVersion, record } = run.inspection;
  const title = (
    <Flex gap="small" align="center" wrap>
      Visual inspection
      {settingsVersion !== null ? (
        <Tag data-testid="inspection-settings-version">
          Cleaning inspection settings version {settingsVersion}
        </Tag>
      ) : null}
    </Flex>
  );
  if (!settings)
    return (
      <Card title={title}>
        <Alert
          type="info"
          showIcon
          title="Record when the cleaning started first: the inspection is judged against the cleaning inspection settings in force then."
        />
      </Card>
    );
  return (
    <Card title={title}>
      <Flex vertical gap="middle">
        {!settings.visualInspectionRequired ? (
          <Alert
            type="info"
            showIcon
            title="The cleaning inspection settings do not require a visual inspection for release."
          />
        ) : null}
        {record ? <RecordSummary {...props} record={record} settings={settings} /> : null}
        {props.canEdit ? <InspectionForm {...props} settings={settings} record={record} /> : null}
      </Flex>
    </Card>
  );
}

function RecordSummary(props: {
  run: TRun;
  record: TInspectionRecord;
  settings: TInspectionSettings;
  canEdit: boolean;
  onConflict: () => void;
}) {
  const { record, settings } = props;
  const verification = record.verifiedAt
    ? `${record.verifiedByName ?? 'A second person'}, ${when(record.verifiedAt)}`
    : settings.requireSecondPersonVerification
      ? 'Required: not yet verified'
      : 'Not required';
  return (
    <Flex vertical gap="small">
      <Descriptions
        size="small"
        bordered
        column={{ xs: 1, md: 2 }}
        aria-label="Recorded inspection"
        items={[
          {
            key: 'result',
            label: 'Result',
            children: (
              <Tag
                color={record.result === 'Pass' ? 'green' : 'red'}
                data-testid="inspection-result"
              >
                {record.result}
              </Tag>
            ),
          },
          { key: 'inspector', label: 'Inspector', children: record.inspectorName ?? '—' },
          { key: 'at', label: 'Inspected at', children: when(record.inspectedAt) },
          { key: 'lux', label: 'Light', children: `${record.lightLux} lux` },
          { key: 'notes', label: 'Notes', children: record.notes ?? '—' },
          {
            key: 'evidence',
            label: 'Photo evidence',
            children: record.evidenceReference ?? '—',
          },
          {
            key: 'verification',
            label: 'Second-person verification',
            children: <span data-testid="inspection-verification">{verification}</span>,
          },
        ]}
      />
      {!record.verifiedAt && props.canEdit ? <VerifyForm {...props} /> : null}
    </Flex>
  );
}

/** The verifier's button; the server refuses the inspector onto it (property verifiedBy). */
function VerifyForm(props: { run: TRun; onConflict: () => void }) {
  const [form] = Form.useForm<{ verifiedBy?: null }>();
  const verify = useRunWrite((scope, version: number) =>
    inspectionCalls.verify(scope, props.run.id, { version }),
  );
  return (
    <Form form={form} name="inspection-verification" layout="vertical">
      <Form.Item name="verifiedBy" label="Verify as the second person">
        <VerifyButton
          loading={verify.isPending}
          onVerify={() =>
            void verify
              .mutateAsync(props.run.version)
              .catch((error: unknown) => showSaveError(error, form, props.onConflict))
          }
        />
      </Form.Item>
    </Form>
  );
}

function VerifyButton(props: { loading: boolean; onVerify: () => void; value?: unknown }) {
  return (
    <Button size="large" loading={props.loading} onClick={props.onVerify}>
      Verify inspection
    </Button>
  );
}

function InspectionForm(props: {
  run: TRun;
  settings: TInspectionSettings;
  record: TInspectionRecord | null;
  onConflict: () => void;
}) {
  const { run, settings, record } = props;
  const [form] = Form.useForm<Values>();
  // The run's version the typed entries start from: a live update does not move it.
  const base = useEditBase(run.version);
  const save = useRunWrite((scope, body: InspectionBody) =>
    inspectionCalls.record(scope, run.id, body),
  );
  const result = Form.useWatch('result', form);
  const initialValues: Values = record
    ? {
        inspectedAt: record.inspectedAt ?? null,
        lightLux: record.lightLux,
        checklist: settings.checklist.map((_, i) => ({ answer: record.checklist[i]?.answer })),
        result: record.result,
        notes: record.notes,
        evidenceReference: record.evidenceReference,
      }
    : { checklist: settings.checklist.map(() => ({})) };

  const text = (value: string | null | undefined) => value?.trim() || null;
  async function submit(): Promise<void> {
    const values = await validatedValues(form);
    if (!values) return;
    const body: InspectionBody = {
      inspectedAt: values.inspectedAt ?? undefined,
      lightLux: values.lightLux as number,
      checklist: values.checklist.map((c) => ({ answer: c?.answer as TChecklistAnswer })),
      result: values.result as 'Pass' | 'Fail',
      notes: text(values.notes),
      evidenceReference: text(values.evidenceReference),
      ...(record ? { reason: values.reason?.trim() } : {}),
      version: base.version,
    };
    // A re-record's reason is asked anew for the next change.
    await save.mutateAsync(body).then(
      () => {
        base.follow();
        form.setFieldValue('reason', '');
      },
      (error: unknown) =>
        showSaveError(error, form, () => {
          base.follow();
          props.onConflict();
        }),
    );
  }

  return (
    <Form form={form} name="inspection" layout="vertical" initialValues={initialValues}>
      <Flex wrap gap="middle">
        <Form.Item
          name="lightLux"
          label={`Light at the surface (lux, at least ${settings.minimumLightLux} for a Pass)`}
          rules={[{ required: true, message: 'The light level in lux is required' }]}
        >
          <InputNumber size="large" min={0} precision={0} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="inspectedAt" label="Inspected at (empty: now)">
          <FacilityDateTimeInput />
        </Form.Item>
      </Flex>
      <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
        <legend style={{ fontWeight: 600, marginBottom: 8 }}>Checklist</legend>
        {settings.checklist.map((item, index) => (
          <Form.Item
            key={item.item}
            name={['checklist', index, 'answer']}
            label={`${item.item}${item.isMandatory ? ' (mandatory)' : ''}`}
            rules={[{ required: true, message: 'Answer Pass, Fail or N/A' }]}
          >
            <Radio.Group
              size="large"
              optionType="button"
              buttonStyle="solid"
              aria-label={item.item}
              options={[
                { value: 'Pass', label: 'Pass' },
                { value: 'Fail', label: 'Fail' },
                { value: 'N/A', label: 'N/A', disabled: item.isMandatory },
              ]}
            />
          </Form.Item>
        ))}
      </fieldset>
      <Form.Item
        name="result"
        label="Inspection result"
        rules={[{ required: true, message: 'Choose Pass or Fail' }]}
      >
        <Radio.Group
          size="large"
          optionType="button"
          buttonStyle="solid"
          aria-label="Inspection result"
          options={[
            { value: 'Pass', label: 'Pass' },
            { value: 'Fail', label: 'Fail' },
          ]}
        />
      </Form.Item>
      <Form.Item
        name="notes"
        label={result === 'Fail' ? 'Notes (what was found and where)' : 'Notes'}
      >
        <Input.TextArea size="large" autoSize={{ minRows: 2, maxRows: 6 }} maxLength={2000} />
      </Form.Item>
      <Form.Item
        name="evidenceReference"
        label={
          settings.requirePhotoEvidence
            ? 'Photo evidence reference (required)'
            : 'Photo evidence reference'
        }
      >
        <Input size="large" maxLength={500} style={{ maxWidth: 400 }} />
      </Form.Item>
      {record ? <ReasonField /> : null}
      <Button type="primary" size="large" loading={save.isPending} onClick={() => void submit()}>
        {record ? 'Record inspection again' : 'Record inspection'}
      </Button>
    </Form>
  );
}
