import { Button, Empty, Flex, Table, Typography, message } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import type { TStudy } from '#core/schemas/verification.schemas.ts';
import { FAILED_RUN_POLICY_LABELS } from '#core/verification/study-outcome.ts';
import { LoadErrorAlert } from '#client/shared/LoadErrorAlert.tsx';
import { describeSaveError } from '#client/api/form-errors.ts';
import {
  studyCalls,
  useStudyRuns,
  useStudyWrite,
  type RunSummary,
} from '#client/shared/studies/studies-api.ts';
import { runRoute } from '#client/shared/studies/study-format.ts';
import { ReleaseTag } from '#client/shared/verification/ReleaseTag.tsx';
import { RunStatusTag, VerdictTag } from './RunTags.tsx';

/** The runs of a study, in order, each opening its run screen; a new run is added at the end. */
export function StudyRunsTable({ study, canAdd }: { study: TStudy; canAdd: boolean }) {
  const runs = useStudyRuns(study.id);
  const addRun = useStudyWrite((scope, id: number) => studyCalls.addRun(scope, id));
  const isOpen = study.closedAt === null && study.controlled.status === 'BeingBuilt';
  const add = async () => {
    try {
      const run = await addRun.mutateAsync(study.id);
      void message.success(`Run ${run.sequence} added`);
    } catch (error) {
      const problem = describeSaveError(error);
      void message.error(`${problem.title}: ${problem.message}`);
    }
  };
  const addButton =
    canAdd && isOpen ? (
      <Button icon={<PlusOutlined />} loading={addRun.isPending} onClick={() => void add()}>
        Add run
      </Button>
    ) : null;
  return (
    <Flex vertical gap="small">
      <Flex justify="space-between" align="center">
        <Typography.Title level={4} style={{ margin: 0 }}>
          Runs
        </Typography.Title>
        {addButton}
      </Flex>
      <Typography.Text type="secondary" data-testid="failed-run-policy">
        When a completed run fails: {FAILED_RUN_POLICY_LABELS[study.failedRunPolicy].toLowerCase()}.
      </Typography.Text>
      {runs.isError ? <LoadErrorAlert title="Could not load the runs" query={runs} /> : null}
      <Table<RunSummary>
        aria-label="Runs"
        rowKey="id"
        size="small"
        loading={runs.isFetching}
        dataSource={runs.data ?? []}
        pagination={false}
        locale={{
          emptyText: runs.isPending ? (
            ' '
          ) : (
            <Empty
              description={`No runs yet. ${study.requiredPasses} consecutive passing runs validate this study.`}
            />
          ),
        }}
        columns={[
          {
            key: 'sequence',
            title: 'Run',
            render: (_, run) => <Link to={runRoute(run.id)}>Run {run.sequence}</Link>,
          },
          {
            key: 'status',
            title: 'Status',
            render: (_, run) => <RunStatusTag status={run.status} />,
          },
          {
            key: 'verdict',
            title: 'Verdict',
            render: (_, run) => <VerdictTag verdict={run.verdict} />,
          },
          {
            key: 'release',
            title: 'Release',
            render: (_, run) => <ReleaseTag flag={run.releaseFlag} />,
          },
        ]}
      />
    </Flex>
  );
}
