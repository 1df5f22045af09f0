import type { EChartsOption } from 'echarts';

/** How a bar reads: good news, a warning, a problem, or plain information. */
export type ChartTone = 'good' | 'warn' | 'bad' | 'neutral';

export const TONE_COLOURS: Record<ChartTone, string> = {
  good: '#389e0d',
  warn: '#d48806',
  bad: '#cf1322',
  neutral: '#1677ff',
};

export interface ChartBar {
  label: string;
  value: number;
  tone?: ChartTone;
}

/** Height in pixels that shows every row of a rows-layout bar chart without crowding. */
export function barRowsHeight(count: number): number {
  return 24 + count * 26;
}

/**
 * A bar per category with its value written beside it (so a printed chart can be read without
 * a scale). 'rows' lays the bars across, labels on the left, first bar on top (the dashboard);
 * 'columns' stands them up with slanted labels for many categories (the ranking).
 */
export function barChartOption(
  bars: readonly ChartBar[],
  options: { layout: 'rows' | 'columns'; unit?: string },
): EChartsOption {
  const categories = bars.map((bar) => bar.label);
  const values = {
    type: 'value' as const,
    minInterval: 1,
    ...(options.unit ? { name: options.unit } : {}),
  };
  const isRows = options.layout === 'rows';
  return {
    animation: false,
    grid: isRows
      ? { left: 8, right: 36, top: 8, bottom: 8, containLabel: true }
      : { left: 50, right: 10, top: 24, bottom: 70 },
    tooltip: { trigger: 'item', formatter: '{b}: {c}' },
    xAxis: isRows
      ? { ...values, show: false }
      : { type: 'category', data: categories, axisLabel: { rotate: 45, fontSize: 9 } },
    yAxis: isRows ? { type: 'category', data: categories, inverse: true } : values,
    series: [
      {
        type: 'bar',
        barMaxWidth: isRows ? 16 : 40,
        label: { show: true, position: isRows ? 'right' : 'top', fontSize: isRows ? 12 : 9 },
        data: bars.map((bar) => ({
          name: bar.label,
          value: bar.value,
          itemStyle: { color: TONE_COLOURS[bar.tone ?? 'neutral'] },
        })),
      },
    ],
  };
}
