import { Tag } from 'antd';
import type { TReport } from '../../../core/schemas/reports.schemas.ts';
import { StatusTag } from '../records/StatusTag.tsx';

/** A report's record status once generated; otherwise its job's state. */
export function ReportStatusTag({ report }: { report: TReport }) {
  if (report.completedAt) return <StatusTag state={report} />;
  if (report.error) return <Tag color="error">Failed</Tag>;
  return <Tag color="processing">Generating</Tag>;
}
