import { Badge } from 'antd';
import { usePendingApprovals } from '#client/shared/records/records-api.ts';

/** The number of records waiting for the user's signature, beside 'My approvals' in the menu. */
export function PendingApprovalsBadge() {
  const pending = usePendingApprovals();
  const count = pending.data?.count ?? 0;
  return (
    <Badge
      count={count}
      size="small"
      style={{ marginLeft: 8 }}
      aria-label={`${count} waiting for your signature`}
    />
  );
}
