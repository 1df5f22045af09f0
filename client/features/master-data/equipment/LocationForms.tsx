import { unitLabel } from '#core/units/format-number.ts';
import { Form, Input, InputNumber, Select, Tag } from 'antd';
import { assessLocation, MATERIALS } from '#core/schemas/equipment-extras.schemas.ts';
import type {
  AssessInput,
  LocationInput,
  SamplingLocation,
} from '#client/shared/master-data/equipment-api.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { SAMPLE_TYPE_LABELS } from '#core/labels/enum-labels.ts';
import { SAMPLE_TYPES } from '#core/schemas/verification.schemas.ts';

const materialOptions = MATERIALS.map((value) => ({ value, label: value }));
const scoreOptions = [1, 2, 3, 4, 5].map((value) => ({ value, label: String(value) }));
/** The colour of a risk level, on tags and on the locations drawn on a picture. */
export const levelColor = { Low: 'green', Medium: 'orange', High: 'red' } as const;

export function RiskTag({
  level,
  score,
}: {
  level: 'Low' | 'Medium' | 'High' | null;
  score: number | null;
}) {
  if (level === null) return <Tag>Not assessed</Tag>;
  return <Tag color={levelColor[level]}>{`${level} (${score ?? ''})`}</Tag>;
}

type Preview = { riskLevel: 'Low' | 'Medium' | 'High' | null; riskScore: number | null } | null;

/** The score an assessment form computes as the user chooses, or what is still missing for it. */
export function RiskScoreItem({ preview, missing }: { preview: Preview; missing: string }) {
  return (
    <Form.Item label="Risk score">
      {preview ? (
        <span aria-label="Computed risk">
          <RiskTag level={preview.riskLevel} score={preview.riskScore} />
        </span>
      ) : (
        missing
      )}
    </Form.Item>
  );
}

interface LocationFormValues extends LocationInput {
  reason: string;
}

/** Add or edit a sampling location; the reason goes with the change. */
export function LocationModal({
  location,
  onSubmit,
  onCancel,
}: {
  location: SamplingLocation | null;
  onSubmit: (data: LocationInput, reason: string) => Promise<void>;
  onCancel: () => void;
}) {
  const [form] = Form.useForm<LocationFormValues>();
  return (
    <ReasonDialog
      askReason
      form={form}
      name="sampling-location"
      title={location ? `Edit ${location.name}` : 'Add sampling location'}
      okText={location ? 'Save' : 'Add location'}
      onSubmit={({ reason, ...data }) => onSubmit(data, reason)}
      onClose={onCancel}
      initialValues={
        location
          ? {
              name: location.name,
              description: location.description,
              sampleType: location.sampleType,
              material: location.material,
              swabArea: location.swabArea,
            }
          : { sampleType: 'swab', swabArea: { value: 100, unit: 'sqcm' } }
      }
    >
      <Form.Item
        name="name"
        label="Name"
        rules={[{ required: true, whitespace: true, message: 'Name is required' }]}
      >
        <Input />
      </Form.Item>
      <Form.Item name="description" label="Description">
        <Input.TextArea rows={2} />
      </Form.Item>
      <Form.Item name="sampleType" label="Sample type">
        <Select
          options={SAMPLE_TYPES.map((value) => ({ value, label: SAMPLE_TYPE_LABELS[value] }))}
        />
      </Form.Item>
      <Form.Item name={['swabArea', 'value']} label="Swab area">
        <InputNumber min={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name={['swabArea', 'unit']} label="Swab area unit">
        <Select
          options={['sqcm', 'sqin', 'sqm'].map((value) => ({ value, label: unitLabel(value) }))}
        />
      </Form.Item>
      <Form.Item name="material" label="Material">
        <Select allowClear options={materialOptions} />
      </Form.Item>
    </ReasonDialog>
  );
}

interface AssessFormValues extends AssessInput {
  reason: string;
}

/**
 * The risk assessment of a location, with its score and class computed as the user chooses,
 * by the same function the server uses.
 */
export function AssessModal({
  location,
  onSubmit,
  onCancel,
}: {
  location: SamplingLocation;
  onSubmit: (input: AssessInput, reason: string) => Promise<void>;
  onCancel: () => void;
}) {
  const [form] = Form.useForm<AssessFormValues>();
  const values = Form.useWatch([], form) as Partial<AssessFormValues> | undefined;
  const previous =
    location.assessment && 'hardToClean' in location.assessment ? location.assessment : null;
  // The server takes the location's material, then the equipment's; the form knows the first.
  const material = values?.material ?? location.material ?? null;
  const preview =
    values?.hardToClean && values.inaccessibility && values.productContact && material
      ? assessLocation({
          hardToClean: values.hardToClean,
          inaccessibility: values.inaccessibility,
          material: material as (typeof MATERIALS)[number],
          productContact: values.productContact,
        })
      : null;

  return (
    <ReasonDialog
      askReason
      form={form}
      name="risk-assessment"
      title={`Risk assessment of ${location.name}`}
      okText="Save assessment"
      onSubmit={({ reason, ...input }) => onSubmit(input, reason)}
      onClose={onCancel}
      initialValues={{
        hardToClean: previous?.hardToClean ?? 1,
        inaccessibility: previous?.inaccessibility ?? 1,
        material: previous?.material ?? location.material ?? undefined,
        productContact: previous?.productContact ?? 'Direct',
        comment: previous?.comment ?? undefined,
      }}
    >
      <Form.Item name="hardToClean" label="Hard to clean (1 smooth … 5 crevices)">
        <Select options={scoreOptions} />
      </Form.Item>
      <Form.Item name="inaccessibility" label="Inaccessibility (1 open … 5 dismantle)">
        <Select options={scoreOptions} />
      </Form.Item>
      <Form.Item name="material" label="Material at the location">
        <Select allowClear options={materialOptions} />
      </Form.Item>
      <Form.Item name="productContact" label="Product contact">
        <Select
          options={['Direct', 'Indirect', 'None'].map((value) => ({ value, label: value }))}
        />
      </Form.Item>
      <Form.Item name="comment" label="Comment">
        <Input.TextArea rows={2} />
      </Form.Item>
      <RiskScoreItem preview={preview} missing="Choose the material to see the score" />
    </ReasonDialog>
  );
}
