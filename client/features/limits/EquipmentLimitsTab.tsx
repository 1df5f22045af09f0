import { Typography } from 'antd';
import { formatQuantity } from '../master-data/format-value.ts';
import type { OpenDerivation } from './DerivationDrawer.tsx';
import { pairDerivation } from './DerivationDrawer.tsx';
import { byNumber, LimitCell } from './LimitCell.tsx';
import type { EquipmentLimitsAnswer, LowestLimits } from './limit-reports-api.ts';
import { pairKey, useEquipmentLimits } from './limit-reports-api.ts';
import { ReportTable } from './ReportTable.tsx';

type Row = EquipmentLimitsAnswer['equipment'][number];
const LIMITS = [
  ['maco', 'Lowest MACO'],
  ['sal', 'Lowest SAL'],
  ['swab', 'Lowest swab limit'],
  ['rinse', 'Lowest rinse limit'],
] as const;

/** Columns of lowest limits that open the derivation of the pair that set them. */
export function limitColumns<T extends LowestLimits>(
  units: Record<keyof LowestLimits, string>,
  explanationsOf: (row: T) => EquipmentLimitsAnswer['explanations'],
  nameOf: (row: T) => string,
  onOpen: (open: OpenDerivation) => void,
) {
  return LIMITS.map(([key, title]) => ({
    key,
    title: `${title} (${units[key]})`,
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
}

function samplingText({ swabArea, rinseVolume }: EquipmentLimitsAnswer['sampling']): string {
  const swab = swabArea
    ? `Swab limits over ${formatQuantity(swabArea)}`
    : 'No swab limits (no swab sampling type with an area)';
  const rinse = rinseVolume
    ? `rinse limits in ${formatQuantity(rinseVolume)}`
    : 'no rinse limits (no rinse sampling type with a volume)';
  return `${swab}, ${rinse}, from the facility’s sampling types.`;
}

/** Each equipment item's lowest limits over the pairs that share it. */
export function EquipmentLimitsTab({ onOpen }: { onOpen: (open: OpenDerivation) => void }) {
  const query = useEquipmentLimits();
  return (
    <ReportTable
      query={query}
      what="equipment limits"
      rowsOf={(data) => data.equipment}
      intro={(data) => (
        <>
          For each item, the lowest limit over every pair of products made on it, and the pair that
          governs it. {samplingText(data.sampling)} Click a number to see how it was reached.
        </>
      )}
      searchPlaceholder="Search equipment or products"
      searchOf={(row) => [
        row.id,
        ...Object.values(row).flatMap((v) =>
          v && typeof v === 'object' && 'pair' in v && v.pair ? v.pair : [],
        ),
      ]}
      table={(data) => ({
        rowKey: 'id',
        columns: [
          {
            key: 'id',
            title: 'Equipment',
            dataIndex: 'id',
            sorter: (a, b) => a.id.localeCompare(b.id),
          },
          {
            key: 'pairs',
            title: 'Pairs',
            dataIndex: 'pairCount',
            sorter: (a, b) => a.pairCount - b.pairCount,
          },
          ...limitColumns<Row>(
            data.units,
            () => data.explanations,
            (row) => row.id,
            onOpen,
          ),
        ],
      })}
    />
  );
}
