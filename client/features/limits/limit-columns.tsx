import { Typography } from 'antd';
import { unitLabel } from '#core/units/format-number.ts';
import type { OpenDerivation } from './DerivationDrawer.tsx';
import { pairDerivation } from './DerivationDrawer.tsx';
import { byNumber, LimitCell } from './LimitCell.tsx';
import type { EquipmentLimitsAnswer, LowestLimits } from './limit-reports-api.ts';
import { pairKey } from './limit-reports-api.ts';

const LIMITS = [
  ['maco', 'Lowest MACO'],
  ['sal', 'Lowest SAL'],
  ['swab', 'Lowest swab limit'],
  ['rinse', 'Lowest rinse limit'],
] as const;

/**
 * The count of pairs, then columns of lowest limits that open the derivation of the pair that
 * set them.
 */
export function limitColumns<T extends LowestLimits & { pairCount: number }>(
  units: Record<keyof LowestLimits, string>,
  explanationsOf: (row: T) => EquipmentLimitsAnswer['explanations'],
  nameOf: (row: T) => string,
  onOpen: (open: OpenDerivation) => void,
) {
  const pairs = {
    key: 'pairs',
    title: 'Pairs',
    dataIndex: 'pairCount',
    sorter: (a: T, b: T) => a.pairCount - b.pairCount,
  };
  const limits = LIMITS.map(([key, title]) => ({
    key,
    title: `${title} (${unitLabel(units[key])})`,
    sorter: byNumber<T>((row) => row[key].value),
    render: (_: unknown, row: T) => {
      const { value, pair } = row[key];
      const explanation = pair ? explanationsOf(row)[pairKey(pair)] : undefined;
      return (
        <>
          <LimitCell
            value={value}
            unit={units[key]}
            label={`${title} of ${nameOf(row)}`}
            onOpen={explanation ? () => onOpen(pairDerivation(explanation, key)) : null}
          />
          {pair ? (
            <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
              {pairKey(pair)}
            </Typography.Text>
          ) : null}
        </>
      );
    },
  }));
  return [pairs, ...limits];
}
