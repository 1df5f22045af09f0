import { Tag } from 'antd';
import type { TRun } from '#core/schemas/verification.schemas.ts';

const VERDICT_COLOURS: Record<TRun['verdict'], string> = {
  Pass: 'success',
  Fail: 'error',
  Invalidated: 'warning',
  Pending: 'default',
};

const RUN_STATUS_LABELS: Record<TRun['status'], string> = {
  NotStarted: 'Not started',
  InProgress: 'In progress',
  BeingReviewed: 'Being reviewed',
  BeingApproved: 'Being approved',
  Completed: 'Completed',
};

/** A run's verdict: Pass, Fail, Invalidated or Pending. */
export function VerdictTag({ verdict }: { verdict: TRun['verdict'] }) {
  return <Tag color={VERDICT_COLOURS[verdict]}>{verdict}</Tag>;
}

/** A run's status in words (spec §4: Not started … Completed). */
export function RunStatusTag({ status }: { status: TRun['status'] }) {
  return (
    <Tag color={status === 'Completed' ? 'success' : undefined}>{RUN_STATUS_LABELS[status]}</Tag>
  );
}
