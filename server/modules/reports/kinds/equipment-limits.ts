import { equipmentLimits } from '#server/modules/limits/limit-reports.service.ts';
import { formatQuantity } from '#core/units/format-number.ts';
import { reportTable } from '../controlled-pdf.ts';
import type { ReportKind } from '../report-kinds.ts';
import { leftOutContent, leftOutSheet } from './left-out.ts';
import { pdeLineageContent, pdeLineageSheet } from '#server/modules/limits/pde-lineage-report.ts';
import { lowestHeaders, lowestPdfCells, lowestWidths, lowestXlsxCells } from './lowest-limits.ts';
import { sheetsXlsx } from './report-xlsx.ts';

/*
 * Equipment limits (spec §3 report kinds): the lowest MACO, SAL, swab and rinse limit of each
 * item over the pairs that share it, as GET limits/equipment answers them at the report's moment.
 */

type Data = Awaited<ReturnType<typeof equipmentLimits>>;

const HEADERS = [
  'Equipment',
  'Pairs',
  ...lowestHeaders({
    maco: 'Lowest MACO',
    sal: 'Lowest SAL',
    swab: 'Swab limit',
    rinse: 'Rinse limit',
  }),
];

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
            [90, 30, ...lowestWidths(55)],
            data.equipment.map((e) => [e.id, String(e.pairCount), ...lowestPdfCells(e, digits)]),
          ),
      // Reports made before issue 32 kept no lineage.
      ...pdeLineageContent(data.pdeLineage ?? []),
      ...leftOutContent(data.uncomputable),
    ];
  },
  xlsx(raw, meta) {
    const data = raw as Data;
    return sheetsXlsx(
      [
        {
          name: 'Equipment limits',
          rows: [HEADERS, ...data.equipment.map((e) => [e.id, e.pairCount, ...lowestXlsxCells(e)])],
        },
        pdeLineageSheet(data.pdeLineage ?? []),
        leftOutSheet(data.uncomputable),
      ],
      meta.significantDigits,
    );
  },
};
