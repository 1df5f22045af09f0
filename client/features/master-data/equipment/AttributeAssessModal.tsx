import { Form, Input, Select, Spin } from 'antd';
import { samplingAttributesDef } from '#core/entities/defs/sampling-policy.def.ts';
import {
  assessByAttributes,
  type AssessmentAttribute,
} from '#core/schemas/sampling-attributes.schemas.ts';
import type {
  AssessInput,
  RatingsInput,
  SamplingLocation,
} from '#client/shared/master-data/equipment-api.ts';
import { AssessModal, RiskScoreItem } from './LocationForms.tsx';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { useEntityOptions } from '#client/shared/master-data/entity-queries.ts';

type Props = {
  location: SamplingLocation;
  onSubmit: (input: AssessInput | RatingsInput, reason: string) => Promise<void>;
  onCancel: () => void;
};

/**
 * The risk assessment of a location: on the facility's sampling-assessment attributes when it
 * has some (as the server then requires), else on the four fixed factors.
 */
export function LocationAssessModal(props: Props) {
  const attributes = useEntityOptions(samplingAttributesDef);
  // Who may not read the attributes assesses on the four factors; where the facility has
  // attributes, the server's refusal says that ratings are needed.
  if (attributes.isPending && !attributes.forbidden) return <Spin />;
  const active = (attributes.data?.data ?? []) as unknown as AssessmentAttribute[];
  if (active.length === 0) return <AssessModal {...props} />;
  return <RatingsModal attributes={active} {...props} />;
}

type RatingsForm = Record<string, string | undefined> & { comment?: string; reason: string };

function RatingsModal({
  attributes,
  location,
  onSubmit,
  onCancel,
}: Props & { attributes: AssessmentAttribute[] }) {
  const [form] = Form.useForm<RatingsForm>();
  const values = Form.useWatch([], form) as Partial<RatingsForm> | undefined;
  const fieldOf = (attribute: AssessmentAttribute) => `attribute-${attribute.id}`;
  const previous =
    location.assessment && 'ratings' in location.assessment ? location.assessment : null;
  const chosen = new Map(
    attributes.flatMap((a) => {
      const option = values?.[fieldOf(a)];
      return option ? [[a.id, option] as const] : [];
    }),
  );
  const preview =
    chosen.size === attributes.length ? assessByAttributes(attributes, chosen, undefined) : null;

  async function save({ reason, comment, ...options }: RatingsForm): Promise<void> {
    const ratings = attributes.map((a) => ({
      attributeId: a.id,
      option: String(options[fieldOf(a)]),
    }));
    await onSubmit({ ratings, ...(comment ? { comment } : {}) }, reason);
  }

  return (
    <ReasonDialog
      askReason
      form={form}
      name="attribute-assessment"
      title={`Risk assessment of ${location.name}`}
      okText="Save assessment"
      onSubmit={save}
      onClose={onCancel}
      initialValues={{
        ...Object.fromEntries(
          (previous?.ratings ?? []).map((r) => [`attribute-${r.attributeId}`, r.option]),
        ),
        comment: previous?.comment ?? undefined,
      }}
    >
      {attributes.map((attribute) => (
        <Form.Item
          key={attribute.id}
          name={fieldOf(attribute)}
          label={`${attribute.name} (weight ${attribute.weight})`}
          rules={[{ required: true, message: `Choose how ${attribute.name} rates here` }]}
        >
          <Select
            options={attribute.options.map((o) => ({
              value: o.label,
              label: `${o.label} (${o.score})`,
            }))}
          />
        </Form.Item>
      ))}
      <Form.Item name="comment" label="Comment">
        <Input.TextArea rows={2} />
      </Form.Item>
      <RiskScoreItem preview={preview} missing="Rate every attribute to see the score" />
    </ReasonDialog>
  );
}
