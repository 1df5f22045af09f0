import { Form, Input, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import {
  cleaningAssessmentKeys,
  startAssessment,
} from '#client/shared/cleaning-assessments/cleaning-assessments-api.ts';

interface StartValues {
  reason?: string;
}

/** Starts an assessment of the whole facility and opens it, where its progress shows. */
export function StartAssessmentDialog({ onClose }: { onClose: () => void }) {
  const scope = useFacilityScope();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [form] = Form.useForm<StartValues>();
  return (
    <ReasonDialog<StartValues>
      form={form}
      name="start-assessment"
      title="Start a cleaning assessment"
      okText="Start assessment"
      initialValues={{}}
      askReason={false}
      onSubmit={async (values) => {
        const reason = values.reason?.trim();
        const started = await startAssessment(scope, reason ? { reason } : {});
        void queryClient.invalidateQueries({
          queryKey: cleaningAssessmentKeys.all(scope.facilityId),
        });
        void navigate(`/cleaning-assessments/${started.id}`);
      }}
      onClose={onClose}
    >
      <Typography.Paragraph>
        The assessment covers the whole facility at the limits in force: groups and their
        representatives, the worst case of every equipment train, and which product × train
        combinations the studies cover. It runs in the background; its gaps become qualification
        tasks.
      </Typography.Paragraph>
      <Form.Item label="Reason (optional)" name="reason">
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={1000} showCount />
      </Form.Item>
    </ReasonDialog>
  );
}
