import { formatNumber, formatQuantity } from '#core/units/format-number.ts';
import { rankingAttributeLabel, rankingFactorHeading } from '#core/labels/enum-labels.ts';
import { rankingChart } from '#core/charts/ranking-chart.ts';
import type { DateTimeSettings } from '#core/datetime/format-date-time.ts';
import { productionsDef } from '#core/entities/defs/index.ts';
import type { TGenerateReportBody, TReportKind } from '#core/schemas/reports.schemas.ts';
import type { TControlledDocumentType } from '#core/schemas/signatures.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { getEntity } from '#server/entities/entity-store.ts';
import { computable, computableLimitsInput } from '../limits/computable-input.ts';
import { eachProductionLimitsInput } from '../limits/facility-limits-input.ts';
import { worstCaseRanking } from '../limits/limit-reports.service.ts';
import { macPdfContent, macPdfTitle, type MacPdfData } from '../limits/mac-production-pdf.ts';
import { changeAssessmentReport, cleaningAssessmentReport } from './assessment-report-kinds.ts';
import { auditLogKind } from './kinds/audit-log.ts';
import { cleaningAgentLimitsKind } from './kinds/cleaning-agent-limits.ts';
import { equipmentLimitsKind } from './kinds/equipment-limits.ts';
import { masterDataSnapshotKind } from './kinds/master-data-snapshot.ts';
import { leftOutContent } from './kinds/left-out.ts';
import { overridesContent, overridesSheet } from './kinds/worst-case-overrides.ts';
import { productionDataXlsx } from './kinds/production-data-xlsx.ts';
import {
  isOneProduction,
  productionLimitsContent,
  productionLimitsTitle,
  productionLimitsXlsx,
  type ProductionLimitsData,
} from './kinds/production-limits.ts';
import { th } from './controlled-pdf.ts';
import type { RecordCheck } from './record-report-parts.ts';
import { annualSummary } from './annual-summary.ts';
import { qualificationKind } from './kinds/qualification.ts';
import { renderChartSvg } from './report-charts.ts';
import { sheetsXlsx } from './kinds/report-xlsx.ts';
import { runReport, studyReport } from './verification-report-kinds.ts';
import type { GuardResource } from '#core/permissions/permission-map.ts';

/*
 * Each report kind (server/modules/reports/README.md): how its data is read as of a moment,
 * and how its files are drawn from that data alone, so the stored data and its hash say
 * everything the files show.
 */

export interface ReportKind {
  /** The data the report shows, read as the facility's records and approved policies were at `asOf`. */
  compute(
    q: Queryable,
    facilityId: number,
    parameters: TGenerateReportBody,
    asOf: string,
  ): Promise<{ title: string; data: unknown }>;
  /**
   * The report's own part of the PDF, from its data, in the facility's date and time formats;
   * for a report of one record, with that record checked as the PDF is drawn.
   */
  pdfContent(data: unknown, settings: DateTimeSettings, record?: RecordCheck): unknown[];
  /**
   * The same content as parts, each built only when the PDF's layout reaches it: a kind whose
   * content runs to thousands of pages (every production of 5,000 products) is never held whole
   * (issue 34). The stored PDF is drawn from these when a kind has them.
   */
  pdfParts?(data: unknown, settings: DateTimeSettings, record?: RecordCheck): Iterable<unknown[]>;
  /** The controlled record a report of one record shows (its integrity and signatures). */
  record?(parameters: TGenerateReportBody): {
    documentType: TControlledDocumentType;
    documentId: number;
  };
  /**
   * The xlsx workbook, for kinds that have one (null where these parameters give none); `meta`
   * is the report's own moment and author, so the same report always gives the same bytes.
   */
  xlsx?(data: unknown, meta: ReportMeta): Promise<Buffer | null>;
  fontSize?: number;
  /**
   * A permission needed besides ReportDocument's to generate this kind and read its files:
   * what the report shows is otherwise reachable only with it (the audit trail).
   */
  permission?: { resource: GuardResource; action: string };
  /** Refuses parameters that cannot give a report, when it is asked for (before the job). */
  check?(q: Queryable, facilityId: number, parameters: TGenerateReportBody): Promise<void>;
  /** What the report is signed as; ReportDocument unless the kind says otherwise. */
  documentType?: TControlledDocumentType;
}

/** Who generated the report and the moment its data was read. */
export interface ReportMeta {
  asOf: string;
  generatedBy: string;
  /** The facility's significant digits: the cells' number formats round as its screens do. */
  significantDigits?: number | undefined;
}

type Ranking = Awaited<ReturnType<typeof worstCaseRanking>>;

const num = (value: number | null, unit: string, digits?: number) =>
  value === null ? '—' : formatQuantity(value, unit, digits);

/** The products of a ranking with their scores, in rank order: one row each. */
function rankingRows(data: Ranking) {
  const factors = [...new Set(data.products.flatMap((p) => Object.keys(p.scores)))];
  return { factors, rows: data.products };
}

const worstCase: ReportKind = {
  async compute(q, facilityId, _parameters, asOf) {
    const data = await worstCaseRanking(q, facilityId, { asOf });
    return { title: 'Worst case ranking', data };
  },
  pdfContent(raw, settings) {
    const data = raw as Ranking;
    const { factors, rows } = rankingRows(data);
    // The chart the Worst case ranking screen draws (core/charts), here as SVG.
    const ranking = rankingChart(rows);
    const chart = rows.every((p) => p.score === null)
      ? []
      : [
          { text: ranking.title, style: 'h2' },
          { svg: renderChartSvg(ranking.option, 760, 260), width: 760 },
        ];
    return [
      {
        text: [
          `${rows.length} products · formula: ${data.formula ? `${data.formula.name} (${data.formula.expression})` : 'APIC worst-case rating'}\n`,
          `Ranked by: ${data.criteria.map((c) => `${c.worst} ${rankingAttributeLabel(c.attribute)}`).join(', ') || 'highest score, then lowest MACO'}`,
        ],
        margin: [0, 0, 0, 8],
      },
      ...chart,
      { text: 'Ranking', style: 'h2' },
      {
        table: {
          headerRows: 1,
          widths: [30, '*', ...factors.map(() => 55), 55, 70],
          body: [
            [
              th('Rank'),
              th('Product'),
              ...factors.map((f) => th(rankingFactorHeading(f))),
              th('Score'),
              th('Lowest MACO'),
            ],
            ...rows.map((p) => [
              String(p.rank),
              p.id,
              ...factors.map((f) => {
                const score = p.scores[f];
                return score === undefined ? '—' : formatNumber(score, settings.significantDigits);
              }),
              p.score === null ? '—' : formatNumber(p.score, settings.significantDigits),
              num(p.lowestMaco, 'mg', settings.significantDigits),
            ]),
          ],
        },
        layout: 'lightHorizontalLines',
      },
      { text: 'Worst-case product per equipment', style: 'h2' },
      {
        table: {
          headerRows: 1,
          widths: [200, '*'],
          body: [
            [th('Equipment'), th('Worst-case product')],
            ...Object.entries(data.perEquipment).map(([equipment, product]) => [
              equipment,
              product ?? '—',
            ]),
          ],
        },
        layout: 'lightHorizontalLines',
      },
      ...overridesContent(data.overrides ?? [], settings),
      ...leftOutContent(data.uncomputable),
    ];
  },
  async xlsx(raw, meta) {
    const data = raw as Ranking;
    const { factors, rows } = rankingRows(data);
    return sheetsXlsx(
      [
        {
          name: 'Ranking',
          rows: [
            [
              'Rank',
              'Product',
              ...factors.map(rankingFactorHeading),
              'Score (points)',
              'Lowest MACO (mg)',
            ],
            ...rows.map((p) => [
              p.rank,
              p.id,
              ...factors.map((f) => p.scores[f] ?? null),
              p.score,
              p.lowestMaco,
            ]),
          ],
        },
        {
          name: 'Per equipment',
          rows: [
            ['Equipment', 'Worst-case product'],
            ...Object.entries(data.perEquipment).map(([equipment, product]) => [
              equipment,
              product ?? null,
            ]),
          ],
        },
        overridesSheet(data.overrides ?? []),
      ],
      meta.significantDigits,
    );
  },
};

const productionLimits: ReportKind = {
  fontSize: 7,
  async compute(q, facilityId, parameters, asOf) {
    if (parameters.kind !== 'production-limits') throw new Error('not a production-limits report');
    const [facility] = await q.query<{ name: string }>(
      'select name from facilities where id = $1',
      [facilityId],
    );
    const options = {
      residueType:
        parameters.variant === 'nitrosamine' ? ('Nitrosamine' as const) : ('Chemical' as const),
      asOf,
    };
    // One production's input, or every production's from one read of the facility.
    const inputs =
      parameters.productionId === undefined
        ? (await eachProductionLimitsInput(q, facilityId, options)).map(
            ({ production, input }) => ({
              name: production.name as string,
              ...computable(input),
            }),
          )
        : [
            {
              name: (await getEntity(q, productionsDef, facilityId, parameters.productionId))
                .name as string,
              ...(await computableLimitsInput(q, facilityId, {
                ...options,
                productionId: parameters.productionId,
              })),
            },
          ];
    const facilityName = facility?.name ?? '';
    const productions: MacPdfData[] = inputs.map(({ name, input, uncomputable }) => ({
      input,
      uncomputable,
      variant: parameters.variant,
      facilityName,
      productionName: name,
    }));
    // One production's matrix, titled by it; or every production's, titled by the facility.
    if (parameters.productionId !== undefined)
      return { title: macPdfTitle(productions[0]!), data: { productions } };
    const data: ProductionLimitsData = { productions, facilityName };
    return { title: productionLimitsTitle(parameters.variant, facilityName), data };
  },
  pdfContent(raw, settings) {
    return [...productionLimits.pdfParts!(raw, settings)].flat();
  },
  *pdfParts(raw, settings) {
    const data = raw as ProductionLimitsData;
    const digits = settings.significantDigits;
    if (isOneProduction(data)) {
      yield macPdfContent(data.productions[0]!, digits);
      return;
    }
    // Every production: their limits side by side, then each one's matrix in turn.
    yield productionLimitsContent(data, digits);
    for (const production of data.productions)
      yield [
        { text: macPdfTitle(production), style: 'h2', pageBreak: 'before' },
        ...macPdfContent(production, digits),
      ];
  },
  xlsx(raw, meta) {
    const data = raw as ProductionLimitsData;
    return isOneProduction(data)
      ? productionDataXlsx(data.productions[0]!, meta)
      : productionLimitsXlsx(data, meta);
  },
};

export const REPORT_KIND_DEFS: Record<TReportKind, ReportKind> = {
  'worst-case-ranking': worstCase,
  'production-limits': productionLimits,
  'change-assessment': changeAssessmentReport,
  'cleaning-assessment': cleaningAssessmentReport,
  study: studyReport,
  run: runReport,
  'equipment-limits': equipmentLimitsKind,
  'cleaning-agent-limits': cleaningAgentLimitsKind,
  'master-data-snapshot': masterDataSnapshotKind,
  'audit-log': auditLogKind,
  'annual-summary': annualSummary,
  qualification: qualificationKind,
};

export const reportDocumentType = (kind: TReportKind): TControlledDocumentType =>
  REPORT_KIND_DEFS[kind].documentType ?? 'ReportDocument';
