import { Tag } from 'antd';
import type { TJudgement } from '#core/schemas/verification.schemas.ts';

/**
 * Pass / Fail / not judged, with the percent of limit ('≤' for a value censored below). A result
 * whose method cannot show its limit is never shown as a pass, even one judged before issue 26.
 */
export function JudgementTag({
  judgement,
  prefix,
}: {
  judgement: Pick<
    TJudgement,
    | 'percentOfLimit'
    | 'censoredBelow'
    | 'methodNotFit'
    | 'passed'
    | 'reportedCensoring'
    | 'reportedValue'
  >;
  prefix?: string;
}) {
  const percent =
    judgement.percentOfLimit === null
      ? ''
      : ` ${judgement.censoredBelow ? '≤ ' : ''}${judgement.percentOfLimit.toFixed(1)} % of limit`;
  const passed = judgement.methodNotFit ? false : judgement.passed;
  const label = judgement.methodNotFit
    ? 'Not shown'
    : passed === null
      ? 'Not judged'
      : passed
        ? 'Pass'
        : 'Fail';
  const colour = passed === null ? 'default' : passed ? 'green' : 'red';
  const reported = judgement.reportedCensoring
    ? ` (reported ${judgement.reportedCensoring} ${judgement.reportedValue})`
    : '';
  return (
    <Tag color={colour} data-testid="judgement" style={{ fontSize: 14, padding: '2px 8px' }}>
      {prefix ? `${prefix}: ` : ''}
      {label}
      {percent}
      {reported}
      {judgement.methodNotFit ? ' (method cannot show the limit)' : ''}
    </Tag>
  );
}
