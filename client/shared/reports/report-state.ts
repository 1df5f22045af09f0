import type { TReport } from '#core/schemas/reports.schemas.ts';
import { isJobFinished } from '../jobs/job-progress.ts';

type ReportState = Pick<TReport, 'completedAt' | 'error' | 'progress'>;

/**
 * A report without its files may still get them: its job's own state says so, not the report's
 * error, which an attempt that pg-boss retries leaves behind (the job reads queued again).
 */
export function isReportPending(report: ReportState): boolean {
  if (report.completedAt !== null) return false;
  if (report.progress) return !isJobFinished(report.progress.state);
  return report.error === null;
}

/** Failed for good: no files, and no attempt left. */
export function isReportFailed(report: ReportState): boolean {
  return report.completedAt === null && !isReportPending(report);
}
