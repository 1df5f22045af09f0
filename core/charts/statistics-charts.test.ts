import { describe, expect, it } from 'vitest';
import type { TStatistics } from '../schemas/verification.schemas.ts';
import { controlChartMax } from './control-chart.ts';
import { ewmaChart, individualsChart, movingRangeChart } from './statistics-charts.ts';

type Series = {
  data: { name: string; value: number; symbol?: string; itemStyle?: { color: string } }[];
  markLine: { data: { name: string; yAxis: number; lineStyle: { type: string } }[] };
};

const point = (
  takenAt: string,
  percentOfLimit: number,
  more: Partial<TStatistics['points'][number]> = {},
) => ({
  resultId: 1,
  historical: false,
  takenAt,
  label: 'Swab 1',
  percentOfLimit,
  censoredBelow: false,
  censoredAbove: false,
  movingRange: null,
  ewma: percentOfLimit,
  alerts: [],
  ...more,
});

const stats = {
  points: [
    point('2026-01-05T10:00:00Z', 20, { censoredBelow: true }),
    point('2026-02-05T10:00:00Z', 30, { movingRange: 10, ewma: 22 }),
    point('2026-03-05T10:00:00Z', 90, { movingRange: 60, ewma: 35.6, alerts: ['aboveAction'] }),
  ],
  mean: 46.7,
  ucl: 85.2,
  mrBar: 35,
  ewmaLambda: 0.2,
  ewmaUcl: 33,
};
const dateOf = (iso: string) => iso.slice(0, 10);
const seriesOf = (option: { series?: unknown }) => (option.series as Series[])[0]!;

describe('the individuals chart', () => {
  const chart = individualsChart(stats, { alertPercent: 50, actionPercent: 80 }, dateOf);
  const series = seriesOf(chart.option);

  it('puts each result at its date as percent of limit, censored hollow, breaking ones red', () => {
    expect(chart.option.xAxis).toMatchObject({
      data: ['2026-01-05', '2026-02-05', '2026-03-05'],
    });
    expect(series.data.map((d) => [d.value, d.symbol, d.itemStyle?.color ?? null])).toEqual([
      [20, 'emptyCircle', null],
      [30, 'circle', null],
      [90, 'circle', '#cf1322'],
    ]);
    expect(series.data[0]!.name).toBe('Swab 1 2026-01-05: ≤ 20.0 %');
  });

  it('names a result above its upper limit with >: its value is only known to lie above', () => {
    const above = individualsChart(
      {
        points: [point('2026-04-05T10:00:00Z', 40, { censoredAbove: true })],
        mean: null,
        ucl: null,
      },
      { alertPercent: 50, actionPercent: 80 },
      dateOf,
    );
    expect(seriesOf(above.option).data[0]!.name).toBe('Swab 1 2026-04-05: > 40.0 %');
  });

  it('draws the limit, the thresholds, the UCL and the mean, each named with its value', () => {
    expect(series.markLine.data.map((l) => [l.name, l.yAxis, l.lineStyle.type])).toEqual([
      ['Limit 100.0 %', 100, 'solid'],
      ['Action 80.0 %', 80, 'dashed'],
      ['Alert 50.0 %', 50, 'dashed'],
      ['UCL 85.2 %', 85.2, 'dashed'],
      ['Mean 46.7 %', 46.7, 'solid'],
    ]);
    expect(chart.summary).toBe('3 results, 1 censored, mean 46.7 %, UCL 85.2 %, 1 above the UCL');
  });

  it('scales the axis to the highest line, not only the points', () => {
    expect(chart.option.yAxis).toMatchObject({ min: 0, max: 110 });
    expect(controlChartMax([], [])).toBe(2);
  });

  it('leaves out the lines a group has no value for', () => {
    const bare = individualsChart(
      { ...stats, mean: null, ucl: null },
      { alertPercent: 50, actionPercent: 80 },
      dateOf,
    );
    expect(seriesOf(bare.option).markLine.data.map((l) => l.name)).toEqual([
      'Limit 100.0 %',
      'Action 80.0 %',
      'Alert 50.0 %',
    ]);
    expect(bare.summary).toContain('mean none %, UCL none %, 0 above the UCL');
  });
});

describe('the moving range and EWMA charts', () => {
  it('draws a moving range for each result after the first, with MR̄ and its UCL (D4 × MR̄)', () => {
    const chart = movingRangeChart(stats, dateOf);
    const series = seriesOf(chart.option);
    expect(series.data.map((d) => d.value)).toEqual([10, 60]);
    expect(series.markLine.data.map((l) => [l.name, l.yAxis])).toEqual([
      ['MR̄ 35.0', 35],
      ['UCL 114.3', 3.267 * 35],
    ]);
    expect(chart.summary).toBe('2 moving ranges, mean moving range 35.0');
  });

  it('flags the EWMA points above the EWMA UCL', () => {
    const chart = ewmaChart(stats, dateOf);
    expect(chart.title).toBe('EWMA (λ = 0.2)');
    expect(seriesOf(chart.option).data.map((d) => d.itemStyle?.color ?? null)).toEqual([
      null,
      null,
      '#cf1322',
    ]);
    expect(chart.summary).toBe('EWMA UCL 33.0 %, 1 points above it');
  });
});
