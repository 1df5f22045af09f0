import { Tag } from 'antd';
import type { TReport } from '#core/schemas/reports.schemas.ts';
import { StatusTag } from '#client/shared/records/StatusTag.tsx';
import { isReportFailed } from '#client/shared/reports/report-state.ts';

/** A report's record status once generated; otherwise its job's state (a retried job is still generating). */
export function ReportStatusTag({ report }: { report: TReport }) {
  if (report.completedAt) return <StatusTag state={report} />;
  if (isReportFailed(report)) return <Tag color="error">Failed</Tag>;
  return <Tag color="processing">Generating</Tag>;
}
