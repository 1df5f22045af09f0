import { describe, expect, it } from 'vitest';
import { barChartOption, TONE_COLOURS } from './bar-chart.ts';
import { rankingChart } from './ranking-chart.ts';

type Series = {
  type: string;
  data: { name: string; value: number; itemStyle: { color: string } }[];
};

describe('the bar chart option', () => {
  const bars = [
    { label: 'Validated', value: 4, tone: 'good' as const },
    { label: 'Failed', value: 1, tone: 'bad' as const },
    { label: 'Other', value: 0 },
  ];

  it('lays rows across, first bar on top, each bar with its value and tone', () => {
    const option = barChartOption(bars, { layout: 'rows' });
    expect(option.yAxis).toMatchObject({
      type: 'category',
      data: ['Validated', 'Failed', 'Other'],
      inverse: true,
    });
    expect(option.xAxis).toMatchObject({ type: 'value', minInterval: 1 });
    const [series] = option.series as Series[];
    expect(series!.data.map((d) => [d.name, d.value, d.itemStyle.color])).toEqual([
      ['Validated', 4, TONE_COLOURS.good],
      ['Failed', 1, TONE_COLOURS.bad],
      ['Other', 0, TONE_COLOURS.neutral],
    ]);
  });

  it('stands columns up with the categories below and the unit on the value axis', () => {
    const option = barChartOption(bars, { layout: 'columns', unit: 'points' });
    expect(option.xAxis).toMatchObject({
      type: 'category',
      data: ['Validated', 'Failed', 'Other'],
    });
    expect(option.yAxis).toMatchObject({ type: 'value', name: 'points' });
  });
});

describe('the ranking chart', () => {
  it('shows the scored products in rank order, at most 30', () => {
    const products = [
      { id: 'A', score: 12 },
      { id: 'B', score: null },
      ...Array.from({ length: 40 }, (_, i) => ({ id: `P${i}`, score: 40 - i })),
    ];
    const chart = rankingChart(products);
    expect(chart.title).toBe('Score of the 30 highest-ranked products');
    const [series] = chart.option.series as Series[];
    expect(series!.data).toHaveLength(30);
    expect(series!.data.slice(0, 2).map((d) => [d.name, d.value])).toEqual([
      ['A', 12],
      ['P0', 40],
    ]);
    expect(chart.summary.startsWith('A 12, P0 40,')).toBe(true);
  });
});
