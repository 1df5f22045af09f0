import { Alert, Checkbox, List, Spin, Typography } from 'antd';
import { useEffect, useMemo } from 'react';
import {
  archiveImpact,
  describeChange,
  describeImpact,
  type LimitsEntityKey,
} from '#core/limits/archive-impact.ts';
import { usageInInput } from '#core/limits/archive-usage.ts';
import { useLimitsInput } from './what-if-api.ts';

interface Props {
  entity: LimitsEntityKey;
  name: string;
  confirmed: boolean;
  onConfirmedChange: (confirmed: boolean) => void;
  /** Tells the dialog whether a confirmation is needed (the record is used somewhere). */
  onNeedsConfirmation: (needed: boolean) => void;
}

const SHOWN = 10;

/**
 * Before an active, an item of equipment or a product is archived: where it is used and which
 * limits change, computed in the browser by the what-if engine on the facility's limits input,
 * and the confirmation the server asks for (confirmImpact).
 */
export function ArchiveImpactPanel({
  entity,
  name,
  confirmed,
  onConfirmedChange,
  onNeedsConfirmation,
}: Props) {
  const input = useLimitsInput(true);
  const result = useMemo(() => {
    if (!input.data) return null;
    const usedIn = usageInInput(input.data, entity, name);
    return { usedIn, impact: archiveImpact(input.data, entity, name, SHOWN) };
  }, [input.data, entity, name]);
  const needed = result === null || result.usedIn.length > 0;
  useEffect(() => onNeedsConfirmation(needed), [needed, onNeedsConfirmation]);
  const confirmation = (
    <Checkbox checked={confirmed} onChange={(e) => onConfirmedChange(e.target.checked)}>
      I have reviewed where it is used and which limits change, and go ahead.
    </Checkbox>
  );

  if (input.isError)
    return (
      <section aria-label="Impact on the limits">
        <Alert
          type="warning"
          showIcon
          message="The limits could not be loaded to show the impact. If it is used, archiving changes limits."
        />
        {confirmation}
      </section>
    );
  if (!result) return <Spin aria-label="Computing the impact on the limits" />;
  if (result.usedIn.length === 0)
    return <Typography.Paragraph>It is used nowhere in the limits.</Typography.Paragraph>;
  const { usedIn, impact } = result;
  return (
    <section aria-label="Impact on the limits">
      <Alert
        type="warning"
        showIcon
        message={`Used in ${usedIn.join(', ')}`}
        description={`Archiving it: ${describeImpact(impact, 0)}`}
      />
      {impact.changes.length > 0 ? (
        <List
          size="small"
          header={<Typography.Text strong>Limits that change</Typography.Text>}
          dataSource={impact.changes.map(describeChange)}
          renderItem={(line) => <List.Item>{line}</List.Item>}
          footer={
            impact.moved > impact.changes.length
              ? `and ${impact.moved - impact.changes.length} more`
              : undefined
          }
        />
      ) : null}
      {confirmation}
    </section>
  );
}
