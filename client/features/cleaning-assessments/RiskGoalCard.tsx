import { Alert, Button, Card, Descriptions, Form, InputNumber, Skeleton, Tag } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { useEditBase } from '#client/shared/use-edit-base.ts';
import {
  cleaningAssessmentKeys,
  saveRiskGoal,
  useRiskGoal,
  type RiskGoal,
} from '#client/shared/cleaning-assessments/cleaning-assessments-api.ts';

interface GoalValues {
  maxRiskScore: number | null;
  minCoveragePercent: number | null;
  reason: string;
}

function Meets({ meets }: { meets: boolean | null }) {
  if (meets === null) return <Tag>No target</Tag>;
  return meets ? <Tag color="success">Meets</Tag> : <Tag color="error">Does not meet</Tag>;
}

function GoalDialog({ goal, onClose }: { goal: RiskGoal; onClose: () => void }) {
  const scope = useFacilityScope();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<GoalValues>();
  // The goal's version when the dialog opened (0 before the first goal): a live update does not
  // move it, so a goal set by someone else meanwhile is a conflict, not saved over.
  const base = useEditBase(goal.version);
  return (
    <ReasonDialog<GoalValues>
      canSubmit={!base.settling}
      form={form}
      name="risk-goal"
      title="Set the risk goal"
      okText="Save"
      initialValues={{
        maxRiskScore: goal.maxRiskScore,
        minCoveragePercent: goal.minCoveragePercent,
      }}
      askReason
      onSubmit={async (values) => {
        const saved = await saveRiskGoal(scope, {
          maxRiskScore: values.maxRiskScore ?? null,
          minCoveragePercent: values.minCoveragePercent ?? null,
          reason: values.reason,
          ...(base.version > 0 ? { version: base.version } : {}),
        });
        queryClient.setQueryData(cleaningAssessmentKeys.riskGoal(scope.facilityId), saved);
      }}
      onConflict={() => {
        base.follow();
        void queryClient.invalidateQueries({
          queryKey: cleaningAssessmentKeys.riskGoal(scope.facilityId),
        });
      }}
      onClose={onClose}
    >
      <Form.Item
        label="Highest acceptable risk score"
        name="maxRiskScore"
        extra="Empty: no target for the risk score."
      >
        <InputNumber min={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item
        label="Share of product × train cells covered (%)"
        name="minCoveragePercent"
        extra="Covered by a study or by the group's representative. Empty: no target for the coverage."
      >
        <InputNumber min={0} max={100} style={{ width: '100%' }} />
      </Form.Item>
    </ReasonDialog>
  );
}

/** The facility's risk goal, and whether the latest completed assessment meets it. */
export function RiskGoalCard() {
  const goal = useRiskGoal();
  const permissions = usePermissions();
  const { formatDateTime } = useDateFormat();
  const [editing, setEditing] = useState(false);
  const canSet = permissions.can('FacilityCleaningEvaluation', 'Generate');
  if (goal.isError) return <Alert type="error" showIcon title={goal.error.message} />;
  if (goal.isPending) return <Skeleton active />;
  const { maxRiskScore, minCoveragePercent, current } = goal.data;
  return (
    <Card
      title="Risk goal"
      role="region"
      aria-label="Risk goal"
      extra={
        canSet ? <Button onClick={() => setEditing(true)}>Set the risk goal</Button> : undefined
      }
    >
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="Highest acceptable risk score">
          {maxRiskScore ?? 'No target'}
        </Descriptions.Item>
        <Descriptions.Item label="Covered cells at least">
          {minCoveragePercent === null ? 'No target' : `${minCoveragePercent} %`}
        </Descriptions.Item>
        {goal.data.updatedAt ? (
          <Descriptions.Item label="Set">{formatDateTime(goal.data.updatedAt)}</Descriptions.Item>
        ) : null}
      </Descriptions>
      {current ? (
        <Descriptions
          column={1}
          size="small"
          bordered
          style={{ marginTop: 16 }}
          title={
            <>
              Against the{' '}
              <Link to={`/cleaning-assessments/${current.assessmentId}`}>latest assessment</Link>
            </>
          }
        >
          <Descriptions.Item label="Highest risk score">
            {current.highestRiskScore ?? '—'} <Meets meets={current.meetsRiskScore} />
          </Descriptions.Item>
          <Descriptions.Item label="Covered cells">
            {current.coveragePercent.toFixed(1)} % <Meets meets={current.meetsCoverage} />
          </Descriptions.Item>
        </Descriptions>
      ) : (
        <Alert
          style={{ marginTop: 16 }}
          type="info"
          showIcon
          title="No completed assessment yet: start one to see the facility against its goal."
        />
      )}
      {editing ? <GoalDialog goal={goal.data} onClose={() => setEditing(false)} /> : null}
    </Card>
  );
}
