import { Alert, Card, Typography } from 'antd';
import type { TTrainSharedArea } from '#core/schemas/productions.schemas.ts';
import { formatNumber, unitLabel } from '#core/units/format-number.ts';

/** Every significant digit up to ten, as the production's area shows it (area-format.ts). */
const AREA_DIGITS = 10;

/**
 * A train's shared product-contact area as last saved, with the derivation a reviewer checks
 * against the equipment list; an edit of the equipment shows its total once saved.
 */
export function TrainSharedArea({ area }: { area: TTrainSharedArea | undefined }) {
  if (!area) return null;
  return (
    <Card
      size="small"
      title="Shared product-contact area"
      aria-label="Shared product-contact area"
      style={{ marginBottom: 16 }}
    >
      <Typography.Text strong data-testid="train-shared-area">
        {`${formatNumber(area.total.value, AREA_DIGITS)} ${unitLabel(area.total.unit)}`}
      </Typography.Text>
      {area.isComplete ? null : ' (incomplete)'}
      {area.missing.length ? (
        <Alert
          style={{ marginTop: 8 }}
          type="warning"
          showIcon
          title="The total is incomplete"
          description={`No surface area for ${area.missing.join(', ')}: enter it on the equipment before relying on the shared surface.`}
        />
      ) : null}
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
        {area.derivation}
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        As saved: a change to the equipment shows here once it is saved.
      </Typography.Paragraph>
    </Card>
  );
}
