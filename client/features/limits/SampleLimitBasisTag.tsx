import { Tag, Tooltip } from 'antd';
import type { SampleRuleName } from '#core/limits/matrix.ts';

const TAGS: Partial<Record<SampleRuleName, { text: string; color: string; tooltip: string }>> = {
  fixed: {
    text: 'fixed limit',
    color: 'gold',
    tooltip:
      'The cleaning limit policy’s fixed sample limit governs: it is lower than the limit calculated for this pair. A fixed limit is a ceiling: it never raises a calculated limit.',
  },
  perSampleCap: {
    text: 'per-sample cap',
    color: 'gold',
    tooltip:
      'The cleaning limit policy’s per-sample limit governs: it is lower than the limit calculated for this pair.',
  },
};

/** Which rule set a swab or rinse limit, where a policy ceiling rather than the calculation did. */
export function SampleLimitBasisTag({ basis }: { basis: SampleRuleName | undefined }) {
  const tag = basis ? TAGS[basis] : undefined;
  if (!tag) return null;
  return (
    <Tooltip title={tag.tooltip}>
      <Tag color={tag.color} style={{ marginLeft: 8 }}>
        {tag.text}
      </Tag>
    </Tooltip>
  );
}
