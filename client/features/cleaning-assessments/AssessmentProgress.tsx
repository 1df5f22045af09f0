import { Progress, Typography } from 'antd';
import type { TJobProgress } from '#core/schemas/jobs.schemas.ts';
import { JobProgressView } from '#client/shared/jobs/JobProgress.tsx';
import {
  isJobFinished,
  jobPercent,
  jobStageText,
  jobWorkerWarning,
} from '#client/shared/jobs/job-progress.ts';

/** The job of an assessment while it runs, or its error; nothing once done (the result shows). */
export function AssessmentProgress({ progress }: { progress: TJobProgress }) {
  if (progress.state === 'done') return null;
  return (
    <div role="status" aria-label="Assessment progress">
      <JobProgressView progress={progress} />
    </div>
  );
}

/** The compact form for a list row. */
export function ProgressCell({ progress }: { progress: TJobProgress }) {
  if (progress.state === 'done') return <Typography.Text type="success">Done</Typography.Text>;
  if (isJobFinished(progress.state))
    return (
      <Typography.Text type="danger">Failed: {progress.error ?? 'no reason given'}</Typography.Text>
    );
  return (
    <div style={{ minWidth: 140 }}>
      <Progress percent={jobPercent(progress)} size="small" status="active" />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {jobStageText(progress)}
      </Typography.Text>
      {jobWorkerWarning(progress) && (
        <Typography.Text type="warning" style={{ fontSize: 12, display: 'block' }}>
          Nobody is working on it now
        </Typography.Text>
      )}
    </div>
  );
}
