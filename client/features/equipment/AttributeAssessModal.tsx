import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Input, Modal, Select, Spin } from 'antd';
import { useState } from 'react';
import { samplingAttributesDef } from '../../../core/entities/defs/sampling-policy.def.ts';
import {
  assessByAttributes,
  type AssessmentAttribute,
} from '../../../core/schemas/sampling-attributes.schemas.ts';
import type { FacilityScope } from '../master-data/entity-api.ts';
import { entityOptionsQuery } from '../master-data/entity-queries.ts';
import type { AssessInput, RatingsInput, SamplingLocation } from './equipment-api.ts';
import { AssessModal, RiskTag } from './LocationForms.tsx';

type Props = {
  scope: FacilityScope;
  location: SamplingLocation;
  onSubmit: (input: AssessInput | RatingsInput, reason: string) => Promise<void>;
  onCancel: () => void;
};

/**
 * The risk assessment of a location: on the facility's sampling-assessment attributes when it
 * has some (as the server then requires), else on the four fixed factors.
 */
export function LocationAssessModal({ scope, ...props }: Props) {
  const attributes = useQuery(entityOptionsQuery(scope, samplingAttributesDef));
  if (attributes.isPending) return <Spin />;
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
}: Omit<Props, 'scope'> & { attributes: AssessmentAttribute[] }) {
  const [form] = Form.useForm<RatingsForm>();
  const values = Form.useWatch([], form) as Partial<RatingsForm> | undefined;
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
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

  async function submit(): Promise<void> {
    const { reason, comment, ...options } = await form.validateFields();
    const ratings = attributes.map((a) => ({
      attributeId: a.id,
      option: String(options[fieldOf(a)]),
    }));
    setBusy(true);
    try {
      await onSubmit({ ratings, ...(comment ? { comment } : {}) }, reason.trim());
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      title={`Risk assessment of ${location.name}`}
      okText="Save assessment"
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={onCancel}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        name="attribute-assessment"
        initialValues={{
          ...Object.fromEntries(
            (previous?.ratings ?? []).map((r) => [`attribute-${r.attributeId}`, r.option]),
          ),
          comment: previous?.comment ?? undefined,
        }}
      >
        {problem ? <Alert type="error" title={problem} /> : null}
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
        <Form.Item label="Risk score">
          {preview ? (
            <span aria-label="Computed risk">
              <RiskTag level={preview.riskLevel} score={preview.riskScore} />
            </span>
          ) : (
            'Rate every attribute to see the score'
          )}
        </Form.Item>
        <Form.Item
          name="reason"
          label="Reason"
          rules={[{ required: true, whitespace: true, message: 'A reason is required' }]}
        >
          <Input.TextArea rows={2} maxLength={1000} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
