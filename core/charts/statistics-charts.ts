import type { TStatistics } from '../schemas/verification.schemas.ts';
import { formatPercent } from '../verification/statistics-alerts.ts';
import type { ChartSpec } from './chart-spec.ts';
import { controlChartOption, type ControlLine } from './control-chart.ts';

/*
 * The charts of ongoing verification (spec: statistics), built once for the screen and for the
 * reports that print them, so a PDF shows what the Ongoing verification screen showed.
 */

type Point = TStatistics['points'][number];

/** The points of a group as the individuals chart needs them (the annual summary keeps fewer). */
export interface IndividualsData {
  points: readonly (Pick<
    Point,
    'takenAt' | 'label' | 'percentOfLimit' | 'censoredBelow' | 'alerts' | 'historical'
  > &
    // The annual summary keeps no right-censoring: its points read as before.
    Partial<Pick<Point, 'censoredAbove'>>)[];
  mean: number | null;
  ucl: number | null;
}

export interface Thresholds {
  alertPercent: number;
  actionPercent: number;
}

/** A date as the reader's settings write it (formatDate of core/datetime with the settings). */
export type DateOf = (iso: string) => string;

const LIMIT = '#cf1322';
const ACTION = '#d4380d';
const ALERT = '#d48806';
const UCL = '#722ed1';
const CENTRE = '#389e0d';

/** One short number for a summary or a line label; 'none' where there is none. */
export const chartNumber = (value: number | null): string =>
  value === null ? 'none' : formatPercent(value);

const lineOf = (
  label: string,
  value: number | null,
  colour: string,
  unit: string,
  dashed = true,
): ControlLine[] =>
  value === null
    ? []
    : [{ label: `${label} ${formatPercent(value)}${unit}`, value, colour, dashed }];

/** Individuals (% of limit) with the limit, action and alert thresholds, UCL and mean. */
export function individualsChart(
  data: IndividualsData,
  thresholds: Thresholds,
  dateOf: DateOf,
): ChartSpec {
  const { points, mean, ucl } = data;
  const censored = points.filter((p) => p.censoredBelow).length;
  const aboveUcl = ucl === null ? 0 : points.filter((p) => p.percentOfLimit > ucl).length;
  return {
    title: 'Individuals (% of limit)',
    summary: `${points.length} results, ${censored} censored, mean ${chartNumber(mean)} %, UCL ${chartNumber(ucl)} %, ${aboveUcl} above the UCL`,
    option: controlChartOption({
      unit: '%',
      points: points.map((p) => ({
        x: dateOf(p.takenAt),
        value: p.percentOfLimit,
        isHollow: p.censoredBelow,
        isFlagged: p.alerts.length > 0,
        title: `${p.label} ${dateOf(p.takenAt)}: ${p.censoredBelow ? '≤ ' : p.censoredAbove ? '> ' : ''}${formatPercent(p.percentOfLimit)} %${p.historical ? ' (historical)' : ''}`,
      })),
      lines: [
        ...lineOf('Limit', 100, LIMIT, ' %', false),
        ...lineOf('Action', thresholds.actionPercent, ACTION, ' %'),
        ...lineOf('Alert', thresholds.alertPercent, ALERT, ' %'),
        ...lineOf('UCL', ucl, UCL, ' %'),
        ...lineOf('Mean', mean, CENTRE, ' %', false),
      ],
    }),
  };
}

/** D4 of the moving range of two (Montgomery, Introduction to Statistical Quality Control). */
const D4 = 3.267;

/** Moving range between consecutive results, with its mean and upper control limit. */
export function movingRangeChart(
  stats: Pick<TStatistics, 'points' | 'mrBar'>,
  dateOf: DateOf,
): ChartSpec {
  const ranges = stats.points.flatMap((p) =>
    p.movingRange === null ? [] : [{ ...p, movingRange: p.movingRange }],
  );
  const { mrBar } = stats;
  return {
    title: 'Moving range',
    summary: `${ranges.length} moving ranges, mean moving range ${chartNumber(mrBar)}`,
    option: controlChartOption({
      points: ranges.map((p) => ({
        x: dateOf(p.takenAt),
        value: p.movingRange,
        title: `${p.label}: ${formatPercent(p.movingRange)}`,
      })),
      lines: [
        ...lineOf('MR̄', mrBar, CENTRE, '', false),
        ...lineOf('UCL', mrBar === null ? null : D4 * mrBar, UCL, ''),
      ],
    }),
  };
}

/** Exponentially weighted moving average, with its control limit and the mean. */
export function ewmaChart(
  stats: Pick<TStatistics, 'points' | 'ewmaLambda' | 'ewmaUcl' | 'mean'>,
  dateOf: DateOf,
): ChartSpec {
  const { ewmaUcl } = stats;
  const above = (value: number) => ewmaUcl !== null && value > ewmaUcl;
  return {
    title: `EWMA (λ = ${stats.ewmaLambda})`,
    summary: `EWMA UCL ${chartNumber(ewmaUcl)} %, ${stats.points.filter((p) => above(p.ewma)).length} points above it`,
    option: controlChartOption({
      unit: '%',
      points: stats.points.map((p) => ({
        x: dateOf(p.takenAt),
        value: p.ewma,
        isFlagged: above(p.ewma),
        title: `${p.label}: EWMA ${formatPercent(p.ewma)} %`,
      })),
      lines: [
        ...lineOf('UCL', ewmaUcl, UCL, ' %'),
        ...lineOf('Mean', stats.mean, CENTRE, ' %', false),
      ],
    }),
  };
}
