import { Alert, Progress, Typography } from 'antd';
import type { TJobProgress } from '#core/schemas/jobs.schemas.ts';
import { jobPercent, jobStageText, jobWorkerWarning } from './job-progress.ts';
import { useJobProgress } from './use-job-progress.ts';

/** A job's bar with its stage, and its error once it has failed. */
export function JobProgressView({ progress }: { progress: TJobProgress }) {
  const status =
    progress.state === 'failed'
      ? 'exception'
      : progress.state === 'done'
        ? 'success'
        : progress.state === 'running'
          ? 'active'
          : 'normal';
  return (
    <div>
      <Typography.Text type="secondary">{jobStageText(progress)}</Typography.Text>
      <Progress percent={jobPercent(progress)} status={status} />
      {jobWorkerWarning(progress) && (
        <Alert
          type="warning"
          showIcon
          title="Nobody is working on this now"
          description={jobWorkerWarning(progress)}
        />
      )}
      {progress.state === 'failed' && (
        <Alert type="error" showIcon title="The job failed" description={progress.error} />
      )}
    </div>
  );
}

/** Follows a job of the current facility by its id until it is done or failed. */
export function JobProgress({ jobId }: { jobId: string | null | undefined }) {
  const query = useJobProgress(jobId);
  if (!jobId) return null;
  if (query.isError) {
    return (
      <Alert
        type="warning"
        showIcon
        title="Could not follow the job"
        description={query.error.message}
      />
    );
  }
  if (!query.data) return <Progress percent={0} status="active" showInfo={false} />;
  return <JobProgressView progress={query.data} />;
}
