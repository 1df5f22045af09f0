import type { DateTimeSettings } from '#core/datetime/format-date-time.ts';
import { nextDay } from '#core/datetime/format-date-time.ts';
import type { TCustomSection } from '#core/schemas/annual-summary.schemas.ts';
import { facilityDateTimeSettings } from '../audit/audit-log.service.ts';
import {
  approvedChanges,
  equipmentTrends,
  masterDataChanges,
  overdueAtEnd,
  runsInPeriod,
  studiesInPeriod,
  type Period,
} from './annual-summary-data.ts';
import { annualSummaryPdfContent } from './annual-summary-pdf.ts';
import type { ReportKind } from './report-kinds.ts';

/*
 * The annual summary (spec §3; README.md in this folder): what an annual cleaning review
 * contains, for the period [start, end], as the records stood at the report's moment. Signed as
 * the controlled document type AnnualSummary.
 */

export interface AnnualSummaryData {
  facilityName: string;
  /** The facility's display settings when the data was read: the PDF prints with them. */
  display: DateTimeSettings;
  period: Period;
  changes: Awaited<ReturnType<typeof approvedChanges>>;
  studies: Awaited<ReturnType<typeof studiesInPeriod>>;
  runs: Awaited<ReturnType<typeof runsInPeriod>>;
  trends: Awaited<ReturnType<typeof equipmentTrends>>;
  overdue: Awaited<ReturnType<typeof overdueAtEnd>>;
  masterData: Awaited<ReturnType<typeof masterDataChanges>>;
  conclusion: string[];
  customSections: TCustomSection[];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The findings the data supports, one sentence each; the reviewers add their own as sections. */
export function conclusionOf(data: Omit<AnnualSummaryData, 'conclusion'>): string[] {
  const { changes, studies, runs, trends, overdue, masterData } = data;
  const movedLimits = changes.filter((c) => (c.impact?.pairsMoved ?? 0) > 0).length;
  const atRisk = changes.reduce((n, c) => n + (c.impact?.resultsAtRisk ?? 0), 0);
  const outcome = (o: string) => studies.filter((s) => s.outcome === o).length;
  const verdict = (v: string) => runs.runs.filter((r) => r.verdict === v).length;
  const results = runs.runs.reduce((n, r) => n + r.results, 0);
  const openDeviations = runs.deviations.filter((d) => d.status === 'Open').length;
  const estimated = trends.trends.filter((t) => t.ppuLower95 !== null);
  const capable = estimated.filter((t) => t.ppuLower95! >= t.ppuTarget).length;
  const changed = masterData.reduce((n, m) => n + m.count, 0);
  const lines = [
    `${plural(changes.length, 'change assessment')} approved in the period; ${movedLimits} moved limits, ${plural(atRisk, 'result')} put at risk by them.`,
    `${plural(studies.length, 'study', 'studies')} open in the period: ${outcome('Validated')} Validated, ${outcome('On Going')} On Going, ${outcome('Failed')} Failed.`,
    `${plural(runs.runs.length, 'run')} in the period: ${verdict('Pass')} passed, ${verdict('Fail')} failed, ${verdict('Invalidated')} invalidated, ${verdict('Pending')} pending; ${plural(runs.failures.length, 'failed result')} of ${results}; ${plural(runs.deviations.length, 'deviation')}, ${openDeviations} still open.`,
    `${plural(trends.trends.length, 'equipment item')} with counted results: ${capable} reach the Ppu target at the lower 95 % bound, ${estimated.length - capable} do not, ${trends.trends.length - estimated.length} without an estimate.`,
    `${plural(overdue.items.length, 'equipment item')} overdue for periodic verification at the end of the period.`,
    `${plural(changed, 'master-data change')} recorded in the audit trail.`,
  ];
  const attention =
    verdict('Fail') +
    runs.failures.length +
    openDeviations +
    overdue.items.length +
    outcome('Failed');
  lines.push(
    attention === 0 && estimated.length - capable === 0
      ? 'No failed run or result, open deviation, failed study, overdue verification or equipment below its capability target: the cleaning procedures remained in a validated state over the period.'
      : 'The failed runs and results, open deviations, failed studies, overdue verifications and equipment below the capability target listed above need the reviewers’ assessment before approval.',
  );
  return lines;
}

/** The moment the period ends for the data: the day after `end`, or the report's moment if earlier. */
export function periodOf(start: string, end: string, asOf: string): Period {
  const after = `${nextDay(end)}T00:00:00.000000Z`;
  return { start, end, until: after < asOf ? after : asOf };
}

export const annualSummary: ReportKind = {
  documentType: 'AnnualSummary',
  async compute(q, facilityId, parameters, asOf) {
    if (parameters.kind !== 'annual-summary') throw new Error('not an annual-summary report');
    const period = periodOf(parameters.start, parameters.end, asOf);
    const { name, ...display } = await facilityDateTimeSettings(q, facilityId);
    const partial = {
      facilityName: name,
      display: {
        timezone: display.timezone,
        dateFormat: display.dateFormat,
        timeFormat: display.timeFormat,
      },
      period,
      changes: await approvedChanges(q, facilityId, period, asOf),
      studies: await studiesInPeriod(q, facilityId, period, asOf),
      runs: await runsInPeriod(q, facilityId, period, asOf),
      trends: await equipmentTrends(q, facilityId, period, asOf),
      overdue: await overdueAtEnd(q, facilityId, period, asOf),
      masterData: await masterDataChanges(q, facilityId, period),
      customSections: parameters.customSections,
    };
    const data: AnnualSummaryData = { ...partial, conclusion: conclusionOf(partial) };
    return { title: `Annual summary ${parameters.start} to ${parameters.end}`, data };
  },
  pdfContent: (data) => annualSummaryPdfContent(data as AnnualSummaryData),
};
