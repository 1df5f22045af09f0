import { Tag } from 'antd';
import type { TJudgement } from '#core/schemas/verification.schemas.ts';

/** Pass / Fail / not judged, with the percent of limit ('≤' for a value censored below). */
export function JudgementTag({ judgement, prefix }: { judgement: TJudgement; prefix?: string }) {
  const percent =
    judgement.percentOfLimit === null
      ? ''
      : ` ${judgement.censoredBelow ? '≤ ' : ''}${judgement.percentOfLimit.toFixed(1)} % of limit`;
  const label = judgement.passed === null ? 'Not judged' : judgement.passed ? 'Pass' : 'Fail';
  const colour = judgement.passed === null ? 'default' : judgement.passed ? 'green' : 'red';
  return (
    <Tag color={colour} data-testid="judgement" style={{ fontSize: 14, padding: '2px 8px' }}>
      {prefix ? `${prefix}: ` : ''}
      {label}
      {percent}
      {judgement.methodNotFit ? ' (method not fit)' : ''}
    </Tag>
  );
}
