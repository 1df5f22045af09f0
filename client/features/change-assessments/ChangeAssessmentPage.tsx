import { Alert, Button, Card, Descriptions, Flex, Space, Spin, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { TChangeAssessment } from '#core/schemas/change-assessments.schemas.ts';
import { useReasonAction } from '#client/shared/reason/use-reason-action.tsx';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { ControlledRecordPanel } from '#client/shared/records/ControlledRecordPanel.tsx';
import {
  changeCalls,
  changePath,
  invalidateAfterSigning,
  useChangeAssessment,
  useChangeWrite,
} from '#client/shared/change-assessments/change-assessments-api.ts';
import { ChangeAssessmentForm } from './ChangeAssessmentForm.tsx';
import { ChangeStatusTag } from '#client/shared/change-assessments/ChangeStatusTag.tsx';
import { EvaluationPanel } from './EvaluationPanel.tsx';
import { ImpactTable } from './ImpactTable.tsx';
import { submitBlocker } from '#client/shared/change-assessments/impact-format.ts';
import { StagedChanges } from './StagedChanges.tsx';
import { RecordReportButton } from '#client/shared/reports/RecordReportButton.tsx';

/** One change assessment: its header, change set, evaluation, impact and signatures. */
export function ChangeAssessmentPage() {
  const id = Number(useParams().id);
  const assessment = useChangeAssessment(id);
  if (assessment.isError)
    return (
      <Alert
        type="error"
        showIcon
        title="Could not load the change assessment"
        description={assessment.error.message}
        action={<Link to="/change-control">Back to change control</Link>}
      />
    );
  if (assessment.isPending) return <Spin />;
  return <LoadedAssessment assessment={assessment.data} />;
}

/** When the change set was applied and by whose approval, as the header says it. */
export function appliedText(
  applied: NonNullable<TChangeAssessment['applied']>,
  formatDateTime: (at: string) => string,
): string {
  const by = applied.approvedBy ? ` by ${applied.approvedBy}` : '';
  return `${formatDateTime(applied.at)}, on approval of version ${applied.versionNumber}${by}`;
}

function LoadedAssessment({ assessment }: { assessment: TChangeAssessment }) {
  const scope = useFacilityScope();
  const queryClient = useQueryClient();
  const permissions = usePermissions();
  const { formatDateTime } = useDateFormat();
  const [editing, setEditing] = useState(false);
  const reasons = useReasonAction();
  const cancel = useChangeWrite((s, reason: string) =>
    changeCalls.cancel(s, assessment.id, { reason, version: assessment.version }),
  );
  const canGenerate = permissions.can('FacilityCleaningEvaluation', 'Generate');
  const isCancelled = assessment.changeStatus === 'Cancelled';
  const isOpen = !isCancelled && assessment.status === 'BeingBuilt';
  const canEdit = canGenerate && isOpen;
  const blocker = isOpen ? submitBlocker(assessment.evaluation) : null;

  return (
    <Flex vertical gap="large">
      <Card>
        <Flex justify="space-between" align="start" wrap gap="middle">
          <Space orientation="vertical" size={4}>
            <Link to="/change-control">← Change control</Link>
            <Typography.Title level={3} style={{ margin: 0 }}>
              {assessment.number} {assessment.title}
            </Typography.Title>
            <ChangeStatusTag status={assessment.changeStatus} />
          </Space>
          <Space>
            <RecordReportButton kind="change-assessment" id={assessment.id} />
            {canEdit ? <Button onClick={() => setEditing(true)}>Edit</Button> : null}
            {canGenerate && !isCancelled && assessment.changeStatus !== 'Approved' ? (
              <Button
                danger
                onClick={() =>
                  reasons.ask({
                    title: `Cancel ${assessment.number}`,
                    okText: 'Cancel the change',
                    danger: true,
                    run: (reason) => cancel.mutateAsync(reason),
                  })
                }
              >
                Cancel change
              </Button>
            ) : null}
          </Space>
        </Flex>
        <Descriptions
          size="small"
          column={{ xs: 1, md: 2 }}
          style={{ marginTop: 16 }}
          items={[
            { key: 'type', label: 'Change type', children: assessment.changeType },
            {
              key: 'moc',
              label: 'Change-of-control record',
              children: assessment.mocNumber ? (
                <Link to="/master-data/moc">{assessment.mocNumber}</Link>
              ) : (
                '—'
              ),
            },
            { key: 'created', label: 'Created', children: formatDateTime(assessment.createdAt) },
            { key: 'updated', label: 'Updated', children: formatDateTime(assessment.updatedAt) },
            {
              key: 'description',
              label: 'Description',
              span: 'filled',
              children: assessment.description || '—',
            },
            ...(assessment.applied
              ? [
                  {
                    key: 'applied',
                    label: 'Applied',
                    span: 'filled' as const,
                    children: appliedText(assessment.applied, formatDateTime),
                  },
                ]
              : []),
            ...(isCancelled
              ? [
                  {
                    key: 'cancelled',
                    label: 'Cancelled',
                    span: 'filled' as const,
                    children: `${formatDateTime(assessment.cancelledAt)}: ${assessment.cancelReason ?? ''}`,
                  },
                ]
              : []),
          ]}
        />
      </Card>
      {!isCancelled ? (
        <Card title="Approval">
          <Flex vertical gap="middle">
            {blocker ? <Alert type="info" showIcon title={blocker} /> : null}
            <ControlledRecordPanel
              documentType="ChangeAssessment"
              documentId={assessment.id}
              title={`${assessment.number} ${assessment.title}`}
              state={assessment}
              canModify={canGenerate}
              path={changePath(scope, assessment.id)}
              onSigned={() => void invalidateAfterSigning(queryClient, scope.facilityId)}
            />
          </Flex>
        </Card>
      ) : null}
      <Card>
        <StagedChanges assessment={assessment} canEdit={canEdit} />
      </Card>
      <EvaluationPanel assessment={assessment} canEvaluate={canEdit} />
      {assessment.evaluation ? (
        <Card title="Impact">
          <ImpactTable
            assessmentId={assessment.id}
            version={assessment.version}
            canDecide={canEdit}
          />
        </Card>
      ) : null}
      {editing ? (
        <ChangeAssessmentForm
          assessment={assessment}
          onSaved={() => undefined}
          onClose={() => setEditing(false)}
        />
      ) : null}
      {reasons.modal}
    </Flex>
  );
}
