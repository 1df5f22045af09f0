import { Space, Tag } from 'antd';
import type { TControlledState } from '#core/schemas/signatures.schemas.ts';
import {
  SIGNATURE_STATE_LABELS,
  STATUS_COLOURS,
  STATUS_LABELS,
} from '#core/records/status-labels.ts';

/** The one status tag of a controlled record: spec §4's label and colour, and its signing state. */
export function StatusTag({
  state,
}: {
  state: Pick<TControlledState, 'status' | 'signatureState'> & { integrityReason?: string | null };
}) {
  const signing = state.signatureState;
  // 'Signed' says no more than 'Active' does; the pending and rejected states add to the status.
  const extra = signing && signing !== 'Signed' ? SIGNATURE_STATE_LABELS[signing] : null;
  return (
    <Space size={4}>
      <Tag
        color={STATUS_COLOURS[state.status]}
        data-testid="record-status"
        // Broken integrity says why, so QA knows what to investigate (21 CFR 11.10(a)).
        title={
          state.status === 'IntegrityBroken' ? (state.integrityReason ?? undefined) : undefined
        }
      >
        {STATUS_LABELS[state.status]}
      </Tag>
      {extra ? (
        <Tag color={signing === 'ChangesRequested' ? 'warning' : 'blue'}>{extra}</Tag>
      ) : null}
    </Space>
  );
}
