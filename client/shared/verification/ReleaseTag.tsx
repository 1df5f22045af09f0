import { Tag, Tooltip } from 'antd';
import { RELEASE_LABELS, type TReleaseFlag } from '#core/schemas/verification.schemas.ts';

const COLOURS: Record<TReleaseFlag, string> = {
  CAN_BE_RELEASED: 'green',
  MAY_BE_RELEASED: 'orange',
  CAN_NOT_BE_RELEASED: 'red',
};

/** Spec §4 release flag of a run, with the reasons behind it in its tooltip. */
export function ReleaseTag({ flag, reasons = [] }: { flag: TReleaseFlag; reasons?: string[] }) {
  const tag = (
    <Tag color={COLOURS[flag]} data-testid="release-flag" aria-label={RELEASE_LABELS[flag]}>
      {RELEASE_LABELS[flag]}
    </Tag>
  );
  if (reasons.length === 0) return tag;
  return (
    <Tooltip
      title={
        <ul style={{ margin: 0, paddingInlineStart: 16 }}>
          {reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      }
    >
      {tag}
    </Tooltip>
  );
}
