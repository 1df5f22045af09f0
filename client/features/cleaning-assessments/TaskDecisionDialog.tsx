import { Form, Input, Select, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import {
  COVERAGE_LABELS,
  STUDY_TYPES,
  type TQualificationTask,
  type TStudyType,
} from '#core/schemas/cleaning-assessments.schemas.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { FacilityDateInput } from '#client/shared/facility-date-inputs.tsx';
import { useEditBase } from '#client/shared/use-edit-base.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import {
  SignerProofField,
  signerProofOf,
  type SignerProofValues,
} from '#client/shared/records/SignerProofField.tsx';
import {
  cleaningAssessmentKeys,
  decideTask,
} from '#client/shared/cleaning-assessments/cleaning-assessments-api.ts';

interface DecisionValues extends SignerProofValues {
  justification?: string;
  proposedStudyType?: TStudyType;
  dueDate?: string;
}

interface TaskDecisionDialogProps {
  task: TQualificationTask;
  action: 'accept' | 'dismiss';
  onClose: () => void;
}

/**
 * Accepting or dismissing a qualification task is signed with the user's password; a dismissal
 * says why the gap needs no study (its justification goes to the audit trail).
 */
export function TaskDecisionDialog({ task, action, onClose }: TaskDecisionDialogProps) {
  const scope = useFacilityScope();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<DecisionValues>();
  const isDismiss = action === 'dismiss';
  // The task's version when the dialog opened: a live update of the list does not move it.
  const base = useEditBase(task.version);
  const reload = () =>
    queryClient.invalidateQueries({ queryKey: cleaningAssessmentKeys.tasks(scope.facilityId) });

  async function decide(values: DecisionValues): Promise<void> {
    const justification = values.justification?.trim();
    await decideTask(scope, task.id, {
      action,
      ...signerProofOf(values),
      version: base.version,
      ...(justification ? { justification } : {}),
      ...(!isDismiss && values.proposedStudyType
        ? { proposedStudyType: values.proposedStudyType }
        : {}),
      ...(!isDismiss && values.dueDate ? { dueDate: values.dueDate } : {}),
    });
    await reload();
  }

  return (
    <ReasonDialog<DecisionValues>
      canSubmit={!base.settling}
      form={form}
      name="task-decision"
      title={`${isDismiss ? 'Dismiss' : 'Accept'} the task: ${task.product} on ${task.train}`}
      okText={isDismiss ? 'Sign and dismiss' : 'Sign and accept'}
      initialValues={{ proposedStudyType: task.proposedStudyType, dueDate: task.dueDate }}
      askReason={false}
      onSubmit={decide}
      onConflict={() => {
        base.follow();
        void reload();
      }}
      onClose={onClose}
    >
      <Typography.Paragraph>
        {COVERAGE_LABELS[task.gap]}. {task.scope}
      </Typography.Paragraph>
      {isDismiss ? null : (
        <>
          <Form.Item label="Study type" name="proposedStudyType">
            <Select options={STUDY_TYPES.map((type) => ({ value: type, label: type }))} />
          </Form.Item>
          <Form.Item label="Due date" name="dueDate">
            <FacilityDateInput aria-label="Due date" />
          </Form.Item>
        </>
      )}
      <Form.Item
        label="Justification"
        name="justification"
        rules={
          isDismiss
            ? [
                {
                  required: true,
                  whitespace: true,
                  message: 'Say why this gap needs no study',
                },
              ]
            : []
        }
      >
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={2000} showCount />
      </Form.Item>
      <Typography.Paragraph type="secondary">
        Your electronic signature is the legally binding equivalent of your handwritten signature.
      </Typography.Paragraph>
      <SignerProofField />
    </ReasonDialog>
  );
}
