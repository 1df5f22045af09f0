import { Tag } from 'antd';
import type { TChangeStatus } from '#core/schemas/change-assessments.schemas.ts';
import { CHANGE_STATUS_COLOURS } from './impact-format.ts';

/** The change status of spec §4 (Not Evaluated, Pending Approval, Approved, Cancelled). */
export function ChangeStatusTag({ status }: { status: TChangeStatus }) {
  return (
    <Tag color={CHANGE_STATUS_COLOURS[status]} data-testid="change-status">
      {status}
    </Tag>
  );
}
