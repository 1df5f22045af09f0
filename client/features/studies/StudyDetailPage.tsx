import { Alert, Button, Card, Descriptions, Flex, Space, Spin, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { TStudy } from '#core/schemas/verification.schemas.ts';
import { useReasonAction } from '#client/shared/reason/use-reason-action.tsx';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { ControlledRecordPanel } from '#client/shared/records/ControlledRecordPanel.tsx';
import {
  invalidateStudies,
  studyCalls,
  studyPath,
  useStudy,
  useStudyWrite,
} from '#client/shared/studies/studies-api.ts';
import { EditStudyModal } from '#client/shared/studies/EditStudyModal.tsx';
import { originLink, passesText } from '#client/shared/studies/study-format.ts';
import { StudyOutcomeTag } from '#client/shared/studies/StudyOutcomeTag.tsx';
import { StudyRunsTable } from './StudyRunsTable.tsx';
import { RecordReportButton } from '#client/shared/reports/RecordReportButton.tsx';

/** One study: its header, outcome, runs and signatures. */
export function StudyDetailPage() {
  const id = Number(useParams().id);
  const study = useStudy(id);
  if (study.isError)
    return (
      <Alert
        type="error"
        showIcon
        title="Could not load the study"
        description={study.error.message}
        action={<Link to="/studies">Back to studies</Link>}
      />
    );
  if (study.isPending) return <Spin />;
  return <LoadedStudy study={study.data} />;
}

function LoadedStudy({ study }: { study: TStudy }) {
  const scope = useFacilityScope();
  const queryClient = useQueryClient();
  const permissions = usePermissions();
  const { formatDateTime } = useDateFormat();
  const reasons = useReasonAction();
  const close = useStudyWrite((s, reason: string) =>
    studyCalls.close(s, study.id, { reason, version: study.controlled.version }),
  );
  const [editing, setEditing] = useState(false);
  const canModify = permissions.can('QualificationTask', 'Modify');
  const isClosed = study.closedAt !== null;
  // The header changes while being built or after approval (the next version), not in signing.
  const inSigning = ['BeingReviewed', 'BeingApproved'].includes(study.controlled.status);
  const origin = originLink(study.origin);
  const title = `${study.number} ${study.title}`;

  return (
    <Flex vertical gap="large">
      <Card>
        <Flex justify="space-between" align="start" wrap gap="middle">
          <Space orientation="vertical" size={4}>
            <Link to="/studies">← Studies</Link>
            <Typography.Title level={3} style={{ margin: 0 }}>
              {title}
            </Typography.Title>
            <Space>
              <StudyOutcomeTag outcome={study.outcome} />
              <Typography.Text data-testid="consecutive-passes">
                {passesText(study)} consecutive passing runs
              </Typography.Text>
            </Space>
          </Space>
          <Space wrap>
            <RecordReportButton kind="study" id={study.id} />
            {canModify && !isClosed && !inSigning ? (
              <Button onClick={() => setEditing(true)}>Edit</Button>
            ) : null}
            {canModify && !isClosed && study.outcome !== 'Validated' ? (
              <Button
                danger
                onClick={() =>
                  reasons.ask({
                    title: `Close ${study.number}`,
                    okText: 'Close the study',
                    description: `${study.number} has not validated, so it closes as Failed and its runs are frozen: none of them can change or be submitted afterwards.`,
                    danger: true,
                    run: (reason) => close.mutateAsync(reason),
                  })
                }
              >
                Close study
              </Button>
            ) : null}
          </Space>
        </Flex>
        {isClosed && study.outcome !== 'Validated' ? (
          <Alert
            style={{ marginTop: 16 }}
            type="error"
            showIcon
            title="Closed without validating"
            description={`${formatDateTime(study.closedAt)}: ${study.closeReason ?? ''}`}
          />
        ) : null}
        <Descriptions
          size="small"
          column={{ xs: 1, md: 2 }}
          style={{ marginTop: 16 }}
          items={[
            { key: 'type', label: 'Study type', children: study.studyType },
            {
              key: 'protocol',
              label: 'Protocol',
              children: (
                <Link to={`/protocols?record=${study.protocolId}`}>
                  {study.protocolName}, version {study.protocolVersionNumber}
                </Link>
              ),
            },
            {
              key: 'origin',
              label: 'Origin',
              children: origin ? <Link to={origin.to}>{origin.text}</Link> : 'None',
            },
            {
              key: 'snapshot',
              label: 'Acceptance criteria',
              children: study.limitsSnapshotName ?? 'No approved limits snapshot',
            },
            {
              key: 'created',
              label: 'Created',
              children: `${formatDateTime(study.createdAt)}${study.createdByName ? `, ${study.createdByName}` : ''}`,
            },
            {
              key: 'description',
              label: 'Description',
              span: 'filled',
              children: study.description || '—',
            },
          ]}
        />
      </Card>
      <Card title="Approval">
        <Flex vertical gap="middle">
          {study.controlled.status === 'BeingBuilt' ? (
            <Alert
              type="info"
              showIcon
              title="The study is signed off once every run is Completed."
            />
          ) : null}
          <ControlledRecordPanel
            documentType="Study"
            documentId={study.id}
            title={title}
            state={study.controlled}
            canModify={canModify}
            path={studyPath(scope, study.id)}
            onSigned={() => void invalidateStudies(queryClient, scope.facilityId)}
          />
        </Flex>
      </Card>
      <Card>
        <StudyRunsTable study={study} canAdd={permissions.can('QualificationTask', 'Add')} />
      </Card>
      {reasons.modal}
      {editing ? <EditStudyModal study={study} onClose={() => setEditing(false)} /> : null}
    </Flex>
  );
}
