import { Tag } from 'antd';
import {
  RELEASE_LABELS,
  type TReleaseFlag,
  type TRun,
} from '../../../core/schemas/verification.schemas.ts';

const RELEASE_COLOURS: Record<TReleaseFlag, string> = {
  CAN_BE_RELEASED: 'success',
  MAY_BE_RELEASED: 'warning',
  CAN_NOT_BE_RELEASED: 'error',
};

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

/** Whether the equipment may be released after a run (spec §4 release flags). */
export function ReleaseTag({ flag }: { flag: TReleaseFlag }) {
  return (
    <Tag color={RELEASE_COLOURS[flag]} data-testid="release-flag">
      {RELEASE_LABELS[flag]}
    </Tag>
  );
}

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
