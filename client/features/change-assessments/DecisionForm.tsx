import { Form, Input, Select, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import {
  DECISION_LABELS,
  DECISIONS,
  type TDecision,
  type TImpactItem,
} from '#core/schemas/change-assessments.schemas.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import {
  changeCalls,
  changeKeys,
  useChangeWrite,
} from '#client/shared/change-assessments/change-assessments-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { useEditBase } from '#client/shared/use-edit-base.ts';
import { decisionsFor } from '#client/shared/change-assessments/impact-format.ts';

interface DecisionValues {
  decision: TDecision;
  justification: string;
}

/** One decision with its justification, for one impact item or for every item chosen. */
export function DecisionForm(props: {
  assessmentId: number;
  version: number;
  items: TImpactItem[];
  onClose: () => void;
}) {
  const { items } = props;
  const [form] = Form.useForm<DecisionValues>();
  const scope = useFacilityScope();
  const client = useQueryClient();
  // The assessment's version when the dialog opened: a live update does not move it.
  const base = useEditBase(props.version);
  const decide = useChangeWrite((scope, values: DecisionValues) =>
    changeCalls.decide(scope, props.assessmentId, {
      decisions: decisionsFor(
        items.map((item) => item.key),
        values.decision,
        values.justification,
      ),
      version: base.version,
    }),
  );
  const only = items.length === 1 ? items[0] : undefined;
  return (
    <ReasonDialog<DecisionValues>
      canSubmit={!base.settling}
      form={form}
      name="decision-form"
      title={only ? `Decision on ${only.subject}` : `Decision on ${items.length} impact items`}
      okText="Record decision"
      initialValues={
        only?.decision
          ? { decision: only.decision.decision, justification: only.decision.justification }
          : {}
      }
      askReason={false}
      onSubmit={(values) => decide.mutateAsync(values)}
      onConflict={() => {
        base.follow();
        void client.invalidateQueries({
          queryKey: changeKeys.detail(scope.facilityId, props.assessmentId),
        });
      }}
      onClose={props.onClose}
    >
      {only ? <Typography.Paragraph>{only.summary}</Typography.Paragraph> : null}
      <Form.Item
        label="Decision"
        name="decision"
        rules={[{ required: true, message: 'Choose a decision' }]}
      >
        <Select options={DECISIONS.map((value) => ({ value, label: DECISION_LABELS[value] }))} />
      </Form.Item>
      <Form.Item
        label="Justification"
        name="justification"
        rules={[{ required: true, whitespace: true, message: 'A justification is required' }]}
      >
        <Input.TextArea rows={3} maxLength={2000} />
      </Form.Item>
    </ReasonDialog>
  );
}
