import { Alert } from 'antd';
import type { TUncomputable } from '#core/schemas/mac-matrix.schemas.ts';

/**
 * The products and equipment a limits view left out because their stored data cannot be
 * computed, each with the reason: the numbers shown are for the rest only.
 */
export function LeftOutAlert({ uncomputable }: { uncomputable: readonly TUncomputable[] }) {
  if (uncomputable.length === 0) return null;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      title="Left out of the limits: their data cannot be computed"
      description={
        <ul aria-label="Left out of the limits">
          {uncomputable.map((u) => (
            <li key={`${u.kind}:${u.id}`}>
              {u.kind === 'product' ? 'Product' : 'Equipment'} {u.id}: {u.reason}
            </li>
          ))}
        </ul>
      }
    />
  );
}
