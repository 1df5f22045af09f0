import { Alert, Card, Descriptions, Typography } from 'antd';
import type { AreaTotal } from '#core/productions/surface-area.ts';
import type { TProductionSurfaceArea } from '#core/schemas/productions.schemas.ts';
import { formatArea, formatAreaChange } from './area-format.ts';

interface AreaPreviewProps {
  saved: TProductionSurfaceArea | undefined;
  /** The total with the user's ticks, computed in the browser with the server's exact rule. */
  draft: AreaTotal | undefined;
  isChanged: boolean;
}

/** The production's surface area as saved and as the ticks would make it, before saving. */
export function AreaPreview({ saved, draft, isChanged }: AreaPreviewProps) {
  const shown = isChanged ? draft : saved;
  const missing = shown?.missing ?? [];
  return (
    <Card size="small" title="Product-contact surface area" aria-label="Surface area">
      <Descriptions size="small" column={1}>
        <Descriptions.Item label="Saved">
          <span data-testid="saved-area">{saved ? formatArea(saved.total) : '…'}</span>
          {saved && !saved.isComplete ? ' (incomplete)' : ''}
        </Descriptions.Item>
        {isChanged && draft ? (
          <Descriptions.Item label="With your ticks">
            <span data-testid="draft-area">{formatArea(draft.total)}</span>
            {saved
              ? ` (${formatAreaChange(saved.total.value, draft.total.value, draft.unit)})`
              : ''}
            {draft.isComplete ? '' : ' (incomplete)'}
          </Descriptions.Item>
        ) : null}
      </Descriptions>
      {missing.length ? (
        <Alert
          type="warning"
          showIcon
          title="The total is incomplete"
          description={`No surface area for ${missing.join(', ')}: enter it on the equipment before relying on the shared surface.`}
        />
      ) : null}
      {shown ? (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {shown.derivation}
        </Typography.Paragraph>
      ) : null}
    </Card>
  );
}
