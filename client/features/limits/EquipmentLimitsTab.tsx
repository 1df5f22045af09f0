import { useNumberFormat, type NumberFormatter } from '#client/shared/use-number-format.ts';
import type { OpenDerivation } from './DerivationDrawer.tsx';
import { limitColumns } from './limit-columns.tsx';
import type { EquipmentLimitsAnswer } from './limit-reports-api.ts';
import { useEquipmentLimits } from './limit-reports-api.ts';
import { ReportTable } from './ReportTable.tsx';

type Row = EquipmentLimitsAnswer['equipment'][number];

function samplingText(
  { swabArea, rinseVolume }: EquipmentLimitsAnswer['sampling'],
  numbers: NumberFormatter,
): string {
  const swab = swabArea
    ? `Swab limits over ${numbers.quantityOf(swabArea)}`
    : 'No swab limits (no swab sampling type with an area)';
  const rinse = rinseVolume
    ? `rinse limits in ${numbers.quantityOf(rinseVolume)}`
    : 'no rinse limits (no rinse sampling type with a volume)';
  return `${swab}, ${rinse}, from the facility’s sampling types.`;
}

/** Each equipment item's lowest limits over the pairs that share it. */
export function EquipmentLimitsTab({ onOpen }: { onOpen: (open: OpenDerivation) => void }) {
  const query = useEquipmentLimits();
  const numbers = useNumberFormat();
  return (
    <ReportTable
      query={query}
      what="equipment limits"
      rowsOf={(data) => data.equipment}
      intro={(data) => (
        <>
          For each item, the lowest limit over every pair of products made on it, and the pair that
          governs it. {samplingText(data.sampling, numbers)} Click a number to see how it was
          reached.
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
