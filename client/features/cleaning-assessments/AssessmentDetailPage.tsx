import { Alert, Card, Descriptions, Flex, Skeleton, Statistic, Tabs, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import type { TCleaningAssessment } from '#core/schemas/cleaning-assessments.schemas.ts';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { LeftOutAlert } from '#client/shared/limits/LeftOutAlert.tsx';
import { usePermissions } from '#client/shared/permissions.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { ControlledRecordPanel } from '#client/shared/records/ControlledRecordPanel.tsx';
import { AssessmentProgress } from './AssessmentProgress.tsx';
import { ChangesSinceTable } from './ChangesSinceTable.tsx';
import {
  cleaningAssessmentKeys,
  useAssessment,
} from '#client/shared/cleaning-assessments/cleaning-assessments-api.ts';
import { CoverageMatrix } from './CoverageMatrix.tsx';
import { GroupsTable, SincePriorPanel, WorstCasesTable } from './ResultTables.tsx';
import { TasksTable } from './TasksTable.tsx';
import { RecordReportButton } from '#client/shared/reports/RecordReportButton.tsx';

type Result = NonNullable<TCleaningAssessment['result']>;

function Counts({ counts }: { counts: Result['counts'] }) {
  return (
    <Flex gap="large" wrap aria-label="Coverage counts">
      <Statistic title="Cells" value={counts.cells} />
      <Statistic title="Covered by a study" value={counts.study} />
      <Statistic title="Covered by a representative" value={counts.representative} />
      <Statistic title="Limit tightened" value={counts.tightened} />
      <Statistic title="Not covered" value={counts.notCovered} />
      <Statistic title="Highest risk score" value={counts.highestRiskScore ?? '—'} />
    </Flex>
  );
}

function ResultTabs({ assessment, result }: { assessment: TCleaningAssessment; result: Result }) {
  const permissions = usePermissions();
  return (
    <Tabs
      items={[
        [
          'coverage',
          'Coverage matrix',
          <CoverageMatrix cells={result.coverage} evaluationId={assessment.id} />,
        ] as const,
        ['worst-cases', 'Worst cases', <WorstCasesTable worstCases={result.worstCases} />] as const,
        ['groups', 'Groups', <GroupsTable groups={result.groups} />] as const,
        [
          'since-prior',
          'Since the prior assessment',
          <SincePriorPanel diff={result.diff} />,
        ] as const,
        [
          'changes-since',
          'Changes since',
          <ChangesSinceTable assessmentId={assessment.id} />,
        ] as const,
        ...(permissions.can('QualificationTask', 'Get')
          ? [['tasks', 'Qualification tasks', <TasksTable evaluationId={assessment.id} />] as const]
          : []),
      ].map(([key, label, children]) => ({ key, label, children }))}
    />
  );
}

/** One assessment: its progress while the job runs, then its result and its signatures. */
export function AssessmentDetailPage() {
  const id = Number(useParams().id);
  const scope = useFacilityScope();
  const queryClient = useQueryClient();
  const permissions = usePermissions();
  const { formatDateTime } = useDateFormat();
  const assessment = useAssessment(id);
  if (assessment.isError) {
    return (
      <Card>
        <Alert type="error" showIcon title={assessment.error.message} />
        <Link to="/cleaning-assessments">Back to the cleaning assessments</Link>
      </Card>
    );
  }
  if (assessment.isPending) return <Skeleton active />;
  const a = assessment.data;
  const result = a.progress.state === 'done' ? a.result : null;
  return (
    <Card>
      <Typography.Text>
        <Link to="/cleaning-assessments">Cleaning assessments</Link> /
      </Typography.Text>
      <Typography.Title level={2} style={{ marginTop: 4 }}>
        Cleaning assessment {a.number}
      </Typography.Title>
      <Flex vertical gap="middle">
        <Descriptions size="small" column={{ xs: 1, md: 3 }}>
          <Descriptions.Item label="Started">{formatDateTime(a.startedAt)}</Descriptions.Item>
          <Descriptions.Item label="By">
            {a.startedByName ?? `User ${a.startedBy}`}
          </Descriptions.Item>
          <Descriptions.Item label="Completed">
            {a.completedAt ? formatDateTime(a.completedAt) : '—'}
          </Descriptions.Item>
          {a.reason ? <Descriptions.Item label="Reason">{a.reason}</Descriptions.Item> : null}
        </Descriptions>
        <AssessmentProgress progress={a.progress} />
        {a.completedAt ? (
          <div>
            <RecordReportButton kind="cleaning-assessment" id={a.id} />
          </div>
        ) : null}
        {result ? (
          <>
            <ControlledRecordPanel
              documentType="CleaningAssessment"
              documentId={a.id}
              title={`Cleaning assessment ${a.number}`}
              state={a}
              canModify={permissions.can('FacilityCleaningEvaluation', 'Generate')}
              // No path: the server keeps no version history route for assessments (their
              // content is the job's result, never edited).
              onSigned={() =>
                void queryClient.invalidateQueries({
                  queryKey: cleaningAssessmentKeys.all(scope.facilityId),
                })
              }
            />
            <LeftOutAlert
              uncomputable={result.uncomputable.map((u) => ({
                kind: 'product' as const,
                id: u.name,
                reason: u.reason,
              }))}
            />
            <Counts counts={result.counts} />
            <ResultTabs assessment={a} result={result} />
          </>
        ) : null}
      </Flex>
    </Card>
  );
}
