import { formatQuantity } from '#core/units/format-number.ts';
import { auditActionLabel, auditDomainLabel } from '#core/audit/audit-format.ts';
import { individualsChart, type Thresholds } from '#core/charts/statistics-charts.ts';
import { formatDate, formatDateTime } from '#core/datetime/format-date-time.ts';
import { DECISION_LABELS, type TDecision } from '#core/schemas/change-assessments.schemas.ts';
import { RELEASE_LABELS, type TReleaseFlag } from '#core/schemas/verification.schemas.ts';
import { formatPercent } from '#core/verification/statistics.ts';
import type { EquipmentTrend } from './annual-summary-data.ts';
import type { AnnualSummaryData } from './annual-summary.ts';
import { renderChartSvg } from './report-charts.ts';

/* The annual summary's part of the controlled PDF, drawn from its data alone. */

const th = (text: string) => ({ text, style: 'th' });
const pct = (value: number | null) => (value === null ? '—' : `${formatPercent(value)} %`);
const fixed = (value: number | null) => (value === null ? '—' : value.toFixed(2));

function table(widths: (number | string)[], header: string[], rows: unknown[][], empty: string) {
  if (rows.length === 0) return { text: empty, italics: true, margin: [0, 0, 0, 6] };
  return {
    table: { headerRows: 1, widths, body: [header.map(th), ...rows] },
    layout: 'lightHorizontalLines',
    margin: [0, 0, 0, 8],
  };
}

/**
 * The individuals chart of one equipment item: the chart of the Ongoing verification screen
 * (core/charts) over the period. The summary keeps no per-point alerts, so no point is red here.
 */
function trendChart(
  trend: EquipmentTrend,
  thresholds: Thresholds,
  settings: AnnualSummaryData['display'],
) {
  const chart = individualsChart(
    {
      mean: trend.mean,
      ucl: trend.ucl,
      points: trend.points.map(([takenAt, percentOfLimit, censoredBelow]) => ({
        takenAt,
        label: trend.name,
        percentOfLimit,
        censoredBelow,
        alerts: [],
        historical: false,
      })),
    },
    thresholds,
    (iso) => formatDate(iso, settings),
  );
  return {
    width: 380,
    stack: [
      { text: `${trend.name}: ${chart.title}`, bold: true, fontSize: 8 },
      { svg: renderChartSvg(chart.option, 380, 170), width: 380 },
    ],
  };
}

function impactText(change: AnnualSummaryData['changes'][number]): string {
  const i = change.impact;
  if (!i) return 'Not evaluated';
  return [
    `${i.pairsMoved} pairs moved (${i.pairsTightened} tightened), ${i.pairsAdded} added, ${i.pairsRemoved} removed`,
    `${i.criterionChanged} governing criterion changes, ${i.worstCasesChanged} worst cases changed`,
    `${i.belowLoq} below LOQ, ${i.resultsAtRisk} results at risk`,
  ].join('; ');
}

const decisionsText = (decisions: Record<string, number>) =>
  Object.entries(decisions)
    .map(([d, n]) => `${DECISION_LABELS[d as TDecision] ?? d}: ${n}`)
    .join(', ') || '—';

export function annualSummaryPdfContent(data: AnnualSummaryData): unknown[] {
  const s = data.display;
  const day = (date: string) => formatDate(`${date}T12:00:00Z`, { ...s, timezone: 'UTC' });
  const when = (at: string | null) => (at === null ? '—' : formatDateTime(at, s));
  const { runs, trends } = data;
  const charts = trends.trends.map((t) => trendChart(t, trends, s));
  const chartRows: unknown[] = [];
  for (let i = 0; i < charts.length; i += 2)
    chartRows.push({ columns: charts.slice(i, i + 2), columnGap: 10, margin: [0, 0, 0, 6] });
  let n = 0;
  const h = (text: string) => ({ text: `${++n}. ${text}`, style: 'h2' });
  return [
    h('Scope'),
    {
      text: [
        `Period: ${day(data.period.start)} to ${day(data.period.end)} (whole UTC days). `,
        `Data as the records stood on ${when(data.period.until)} (${s.timezone}).`,
      ],
      margin: [0, 0, 0, 8],
    },
    h('Changes approved in the period'),
    table(
      [50, '*', 90, 90, 40, 220, 120],
      ['Number', 'Title', 'Type', 'Approved', 'Changes', 'Impact', 'Decisions'],
      data.changes.map((c) => [
        `${c.number} v${c.versionNumber}`,
        c.title,
        c.changeType,
        when(c.approvedAt),
        String(c.changeCount),
        impactText(c),
        decisionsText(c.decisions),
      ]),
      'No change assessment was approved in the period.',
    ),
    h('Studies and their outcomes'),
    table(
      [50, '*', 110, 60, 90, 90, 50, 60],
      ['Number', 'Title', 'Type', 'Outcome', 'Started', 'Closed', 'Runs', 'Passes'],
      data.studies.map((st) => [
        st.number,
        st.title,
        st.studyType,
        st.outcome,
        when(st.createdAt),
        when(st.closedAt),
        String(st.runsInPeriod),
        `${st.consecutivePasses} of ${st.requiredPasses}`,
      ]),
      'No study was open in the period.',
    ),
    h('Runs and results'),
    table(
      ['*', 90, 90, 55, 110, 45, 45, 55],
      ['Run', 'Started', 'Ended', 'Verdict', 'Release', 'Results', 'Failed', 'Deviations'],
      runs.runs.map((r) => [
        r.label,
        when(r.startedAt),
        when(r.endedAt),
        r.verdict,
        RELEASE_LABELS[r.releaseFlag as TReleaseFlag] ?? r.releaseFlag,
        String(r.results),
        String(r.failed),
        String(r.deviations),
      ]),
      'No run in the period.',
    ),
    { text: 'Failed results', bold: true, margin: [0, 4, 0, 4] },
    table(
      ['*', 120, 120, 80, 60, 90],
      ['Run', 'Sampling location', 'Equipment', 'Result', '% of limit', 'Taken'],
      runs.failures.map((f) => [
        f.run,
        f.location,
        f.equipment,
        formatQuantity(f.value, f.unit),
        pct(f.percentOfLimit),
        when(f.takenAt),
      ]),
      'No result failed in the period.',
    ),
    { text: 'Deviations', bold: true, margin: [0, 4, 0, 4] },
    table(
      [55, 90, 60, '*', 45, 55, 120, 70],
      ['Number', 'Run', 'Kind', 'Title', 'Status', 'Invalidates', 'Root cause', 'CAPA'],
      runs.deviations.map((d) => [
        d.number,
        d.run,
        d.kind === 'process' ? 'Process' : 'Non-process',
        d.title,
        d.status,
        d.invalidatesRun ? 'Yes' : 'No',
        d.rootCause ?? '—',
        d.capaReference ?? '—',
      ]),
      'No deviation in the period.',
    ),
    h('Trends and capability per equipment'),
    {
      text: `Every counted result of the period as percent of its limit, as the Ongoing verification screen shows it (alert ${formatPercent(trends.alertPercent)} %, action ${formatPercent(trends.actionPercent)} %). Ppu is the one-sided capability against 100 % of limit.`,
      margin: [0, 0, 0, 6],
    },
    table(
      ['*', 40, 45, 50, 50, 40, 55, 40, 35, 170],
      [
        'Equipment',
        'Results',
        'Censored',
        'Mean',
        'UCL',
        'Ppu',
        'Lower 95 %',
        'Target',
        'Alerts',
        'Statement',
      ],
      trends.trends.map((t) => [
        t.name,
        String(t.count),
        String(t.censoredCount),
        pct(t.mean),
        pct(t.ucl),
        fixed(t.ppu),
        fixed(t.ppuLower95),
        fixed(t.ppuTarget),
        String(t.alerts),
        t.statement ?? t.ppuMethod ?? '',
      ]),
      'No counted result in the period.',
    ),
    ...chartRows,
    h('Overdue periodic verifications'),
    {
      text: `Equipment whose latest study was Validated more than ${data.overdue.periodicVerificationDays} days before ${when(data.overdue.at)}: ${data.overdue.items.length} of ${data.overdue.equipmentCount}.`,
      margin: [0, 0, 0, 6],
    },
    table(
      ['*', 160],
      ['Equipment', 'Validated'],
      data.overdue.items.map((o) => [o.name, when(o.validatedAt)]),
      'No periodic verification was overdue.',
    ),
    h('Master-data changes'),
    table(
      ['*', 160, 80],
      ['Entity', 'Action', 'Changes'],
      data.masterData.map((m) => [
        auditDomainLabel(m.domain),
        auditActionLabel(m.action),
        String(m.count),
      ]),
      'No master-data change was recorded in the period.',
    ),
    h('Conclusion'),
    { ul: data.conclusion, margin: [0, 0, 0, 8] },
    // The reviewers' sections start a page: a long summary is laid out in parts on every core
    // (render-pdf.ts) only where a page starts, and they often weigh as much as the tables.
    ...data.customSections.flatMap((section, i) => [
      i === 0 ? { ...h(section.title), pageBreak: 'before' } : h(section.title),
      { text: section.text },
    ]),
  ];
}
