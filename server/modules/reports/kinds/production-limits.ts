import { compileLimits } from '#core/limits/compile.ts';
import { limitsReport } from '#core/limits/limit-reports.ts';
import type { MacPdfData, MacPdfVariant } from '#server/modules/limits/mac-production-pdf.ts';
import { reportTable } from '../controlled-pdf.ts';
import type { ReportMeta } from '../report-kinds.ts';
import { leftOutSheet } from './left-out.ts';
import { lowestHeaders, lowestPdfCells, lowestWidths, lowestXlsxCells } from './lowest-limits.ts';
import { sheetsXlsx } from './report-xlsx.ts';
import { inputLineages } from '#core/hbel/lineage.ts';
import { pdeLineageContent, pdeLineageSheet } from '#server/modules/limits/pde-lineage-report.ts';

/*
 * The production limits of every production of a facility (spec §3 report kinds): for each
 * production, its own MAC matrix's governing MACO and lowest SAL, swab and rinse limits, each
 * with the pair that set it, as GET limits/productions answers them. They are read off the
 * matrices of the report's stored data, so the files show only what its hash covers.
 */

/** The data of a production-limits report: one production's matrix, or every production's. */
export interface ProductionLimitsData {
  productions: MacPdfData[];
  /** The facility's name, in a report of every production of it (absent for one production). */
  facilityName?: string;
}

/** A report of one production (reports of every production made before issue 30 say none). */
export const isOneProduction = (data: ProductionLimitsData): boolean =>
  data.facilityName === undefined && data.productions.length === 1;

/** The title of a report of every production: what it is, and of which facility. */
export const productionLimitsTitle = (variant: MacPdfVariant, facilityName: string): string =>
  `${variant === 'nitrosamine' ? 'Nitrosamine production limits' : 'Production limits'} · ${facilityName}`;

const HEADERS = [
  'Production',
  'Products',
  'Equipment',
  'Pairs',
  ...lowestHeaders({
    maco: 'Governing MACO',
    sal: 'Lowest SAL',
    swab: 'Lowest swab limit',
    rinse: 'Lowest rinse limit',
  }),
];

/** Each production's counts and lowest limits over the pairs of its own matrix. */
function productionRows(productions: readonly MacPdfData[]) {
  return productions.map((production) => {
    const m = compileLimits(production.input);
    const { overall } = limitsReport(m);
    return {
      name: production.productionName,
      productCount: m.productCount,
      equipmentCount: m.equipmentCount,
      ...overall,
    };
  });
}

/** The PDF's first part: the facility's productions side by side, before each one's matrix. */
export function productionLimitsContent(data: ProductionLimitsData, digits?: number): unknown[] {
  const facilityName = data.facilityName ?? data.productions[0]?.facilityName ?? '';
  if (data.productions.length === 0)
    return [
      { text: `Facility: ${facilityName}`, margin: [0, 0, 0, 8] },
      { text: 'The facility has no productions.', italics: true },
    ];
  return [
    {
      text: `Facility: ${facilityName} · ${data.productions.length} productions · ${data.productions[0]!.input.policy.residueType} policy`,
      margin: [0, 0, 0, 8],
    },
    { text: 'Governing MACO and lowest limits of each production', style: 'h2' },
    reportTable(
      HEADERS,
      [80, 32, 34, 26, ...lowestWidths(52)],
      productionRows(data.productions).map((row) => [
        row.name,
        String(row.productCount),
        String(row.equipmentCount),
        String(row.pairCount),
        ...lowestPdfCells(row, digits),
      ]),
    ),
    ...pdeLineageContent(inputLineages(data.productions.map((p) => p.input))),
  ];
}

/**
 * The workbook of a report of every production: one row per production (full values, shown at
 * the facility's significant digits), and what the engine left out, once each.
 */
export function productionLimitsXlsx(data: ProductionLimitsData, meta: ReportMeta) {
  const leftOut = new Map(
    data.productions.flatMap((p) => p.uncomputable.map((u) => [`${u.kind}:${u.id}`, u] as const)),
  );
  return sheetsXlsx(
    [
      {
        name: 'Production limits',
        rows: [
          HEADERS,
          ...productionRows(data.productions).map((row) => [
            row.name,
            row.productCount,
            row.equipmentCount,
            row.pairCount,
            ...lowestXlsxCells(row),
          ]),
        ],
      },
      pdeLineageSheet(inputLineages(data.productions.map((p) => p.input))),
      leftOutSheet([...leftOut.values()]),
    ],
    meta.significantDigits,
  );
}
