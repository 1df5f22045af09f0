import { Button, Card, Collapse, Empty, Flex, Spin, Table, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { StatusTag } from '#client/shared/records/StatusTag.tsx';
import { ProgressCell } from './AssessmentProgress.tsx';
import { ChangesSinceTable } from './ChangesSinceTable.tsx';
import {
  useAssessments,
  type CleaningAssessmentSummary,
} from '#client/shared/cleaning-assessments/cleaning-assessments-api.ts';
import { RiskGoalCard } from './RiskGoalCard.tsx';
import { StartAssessmentDialog } from './StartAssessmentDialog.tsx';
import { TasksTable } from './TasksTable.tsx';

const count = (value: number | undefined) =>
  value === undefined ? '—' : value.toLocaleString('en-US');

function AssessmentList() {
  const { formatDateTime } = useDateFormat();
  const permissions = usePermissions();
  const [page, setPage] = useState({ pageNumber: 1, pageLimit: 10 });
  const [starting, setStarting] = useState(false);
  const list = useAssessments(page);
  const canStart = permissions.can('FacilityCleaningEvaluation', 'Generate');
  const rows = list.data?.cleaningAssessments ?? [];
  return (
    <Flex vertical gap="middle">
      {canStart ? (
        <div>
          <Button type="primary" onClick={() => setStarting(true)}>
            Start assessment
          </Button>
        </div>
      ) : null}
      <Table<CleaningAssessmentSummary>
        aria-label="Cleaning assessments"
        size="small"
        rowKey="id"
        loading={list.isPending}
        dataSource={rows}
        locale={{
          emptyText: (
            <Empty
              description={
                canStart
                  ? 'No assessment yet. Start one to see which product × train combinations your studies cover.'
                  : 'No assessment yet.'
              }
            />
          ),
        }}
        pagination={{
          current: page.pageNumber,
          pageSize: page.pageLimit,
          total: list.data?.total ?? 0,
          onChange: (pageNumber, pageLimit) => setPage({ pageNumber, pageLimit }),
        }}
        columns={[
          {
            title: 'Number',
            dataIndex: 'number',
            render: (number: string, row) => (
              <Link to={`/cleaning-assessments/${row.id}`}>{number}</Link>
            ),
          },
          { title: 'Started', dataIndex: 'startedAt', render: (at: string) => formatDateTime(at) },
          {
            title: 'By',
            dataIndex: 'startedByName',
            render: (name: string | null | undefined, row) => name ?? `User ${row.startedBy}`,
          },
          {
            title: 'Reason',
            dataIndex: 'reason',
            ellipsis: true,
            render: (r: string | null) => r ?? '—',
          },
          {
            title: 'Progress',
            dataIndex: 'progress',
            render: (progress: CleaningAssessmentSummary['progress']) => (
              <ProgressCell progress={progress} />
            ),
          },
          {
            title: 'Status',
            key: 'status',
            render: (_: unknown, row) =>
              row.progress.state === 'done' ? <StatusTag state={row} /> : '—',
          },
          {
            title: 'Cells',
            key: 'cells',
            align: 'right',
            render: (_: unknown, row) => count(row.counts?.cells),
          },
          {
            title: 'Covered',
            key: 'covered',
            align: 'right',
            render: (_: unknown, row) =>
              row.counts ? count(row.counts.study + row.counts.representative) : '—',
          },
          {
            title: 'Gaps',
            key: 'gaps',
            align: 'right',
            render: (_: unknown, row) =>
              row.counts ? count(row.counts.tightened + row.counts.notCovered) : '—',
          },
        ]}
      />
      {rows.some((row) => row.progress.state === 'done') ? (
        <Collapse
          items={[
            {
              key: 'since',
              label: 'Changes since the latest assessment',
              children: <ChangesSinceTable />,
            },
          ]}
        />
      ) : null}
      {starting ? <StartAssessmentDialog onClose={() => setStarting(false)} /> : null}
    </Flex>
  );
}

/**
 * Facility cleaning assessments (spec §7 cleaningEvaluation): the assessments, the qualification
 * tasks their gaps raised, and the facility's risk goal.
 */
export function CleaningAssessmentsPage() {
  const permissions = usePermissions();
  const [params, setParams] = useSearchParams();
  const tabs = [
    permissions.can('FacilityCleaningEvaluation', 'Get') && {
      key: 'assessments',
      label: 'Assessments',
      children: <AssessmentList />,
    },
    permissions.can('QualificationTask', 'Get') && {
      key: 'tasks',
      label: 'Qualification tasks',
      children: <TasksTable />,
    },
    permissions.can('RiskCalculation', 'Get') && {
      key: 'risk-goal',
      label: 'Risk goal',
      children: <RiskGoalCard />,
    },
  ].filter((tab) => tab !== false);
  return (
    <Card>
      <Typography.Title level={2}>Cleaning assessments</Typography.Title>
      {permissions.isLoading ? (
        <Spin />
      ) : tabs.length === 0 ? (
        <Empty description="You may not see the cleaning assessments of this facility." />
      ) : (
        <Tabs
          activeKey={params.get('tab') ?? tabs[0]?.key}
          onChange={(tab) => setParams({ tab }, { replace: true })}
          items={tabs}
        />
      )}
    </Card>
  );
}
