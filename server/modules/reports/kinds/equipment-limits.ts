import { equipmentLimits } from '#server/modules/limits/limit-reports.service.ts';
import { formatQuantity, unitLabel } from '#core/units/format-number.ts';
import { reportTable } from '../controlled-pdf.ts';
import type { ReportKind } from '../report-kinds.ts';
import { leftOutContent, leftOutSheet } from './left-out.ts';
import { cellNumber, sheetsXlsx } from './report-xlsx.ts';

/*
 * Equipment limits (spec §3 report kinds): the lowest MACO, SAL, swab and rinse limit of each
 * item over the pairs that share it, as GET limits/equipment answers them at the report's moment.
 */

type Data = Awaited<ReturnType<typeof equipmentLimits>>;
type Lowest = Data['equipment'][number]['maco'];

const LIMITS = [
  ['maco', 'Lowest MACO', 'mg'],
  ['sal', 'Lowest SAL', 'mg/sqcm'],
  ['swab', 'Swab limit', 'mg/swab'],
  ['rinse', 'Rinse limit', 'mg/ml'],
] as const;

const HEADERS = [
  'Equipment',
  'Pairs',
  ...LIMITS.flatMap(([, label, unit]) => [`${label} (${unitLabel(unit)})`, `${label} set by`]),
];

// Roboto, the font pdfmake embeds, has no arrows: pairs read 'A -> B'.
const pairText = (l: Lowest) => (l.pair ? `${l.pair[0]} -> ${l.pair[1]}` : '—');
const value = (l: Lowest, unit: string, digits?: number) =>
  formatQuantity(l.value ?? undefined, unit, digits);

function samplingText(sampling: Record<string, unknown>, digits?: number): string {
  const q = (v: unknown) =>
    v && typeof v === 'object' && 'value' in v && 'unit' in v && typeof v.value === 'number'
      ? formatQuantity(v.value, String(v.unit), digits)
      : 'none';
  return `Swab area: ${q(sampling.swabArea)} · rinse volume: ${q(sampling.rinseVolume)} (the facility's first swab and rinse sampling types)`;
}

export const equipmentLimitsKind: ReportKind = {
  async compute(q, facilityId, _parameters, asOf) {
    return { title: 'Equipment limits', data: await equipmentLimits(q, facilityId, { asOf }) };
  },
  pdfContent(raw, settings) {
    const data = raw as Data;
    const digits = settings.significantDigits;
    return [
      {
        text: `${data.equipment.length} equipment items in at least one pair · ${samplingText(data.sampling, digits)}`,
        margin: [0, 0, 0, 8],
      },
      data.equipment.length === 0
        ? { text: 'No equipment item is shared by two products yet.', italics: true }
        : reportTable(
            HEADERS,
            [90, 30, ...LIMITS.flatMap(() => [55, '*'])],
            data.equipment.map((e) => [
              e.id,
              String(e.pairCount),
              ...LIMITS.flatMap(([key, , unit]) => [value(e[key], unit, digits), pairText(e[key])]),
            ]),
          ),
      ...leftOutContent(data.uncomputable),
    ];
  },
  xlsx(raw, meta) {
    const data = raw as Data;
    return sheetsXlsx(
      [
        {
          name: 'Equipment limits',
          rows: [
            HEADERS,
            ...data.equipment.map((e) => [
              e.id,
              e.pairCount,
              ...LIMITS.flatMap(([key]) => [
                cellNumber(e[key].value),
                e[key].pair ? `${e[key].pair[0]} → ${e[key].pair[1]}` : null,
              ]),
            ]),
          ],
        },
        leftOutSheet(data.uncomputable),
      ],
      meta.significantDigits,
    );
  },
};
