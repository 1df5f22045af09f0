import type { EChartsOption } from 'echarts';

/** A horizontal line across a control chart: the limit, a threshold, a centre line. */
export interface ControlLine {
  label: string;
  value: number;
  colour: string;
  dashed?: boolean;
}

export interface ControlPoint {
  /** The category under the point (its date). */
  x: string;
  value: number;
  /** Drawn hollow: the value is a bound, the result lay below it (censored). */
  isHollow?: boolean;
  /** Drawn red: the point breaks a rule. */
  isFlagged?: boolean;
  /** What hovering the point tells. */
  title: string;
}

const POINT = '#1677ff';
const FLAGGED = '#cf1322';

/**
 * The top of the value axis: ECharts scales the axis to the points only, so a limit line above
 * every point would fall off the chart; 10 % headroom keeps the highest line's label inside.
 */
export function controlChartMax(points: readonly ControlPoint[], lines: readonly ControlLine[]) {
  const values = [...points.map((p) => p.value), ...lines.map((l) => l.value)];
  return Math.ceil((Math.max(1, ...values.filter(Number.isFinite)) * 11) / 10);
}

/** Points joined in time order with the chart's horizontal lines, each labelled at the right. */
export function controlChartOption(options: {
  points: readonly ControlPoint[];
  lines: readonly ControlLine[];
  unit?: string;
}): EChartsOption {
  const { points, lines, unit = '' } = options;
  return {
    animation: false,
    grid: { left: 8, right: 64, top: 16, bottom: 8, containLabel: true },
    tooltip: { trigger: 'item', formatter: '{b}' },
    xAxis: {
      type: 'category',
      data: points.map((p) => p.x),
      axisLabel: { fontSize: 9, hideOverlap: true },
    },
    yAxis: {
      type: 'value',
      min: 0,
      max: controlChartMax(points, lines),
      axisLabel: { formatter: `{value}${unit}`, fontSize: 9 },
    },
    series: [
      {
        type: 'line',
        symbolSize: 6,
        lineStyle: { color: POINT, width: 1.5 },
        itemStyle: { color: POINT },
        data: points.map((p) => ({
          name: p.title,
          value: p.value,
          symbol: p.isHollow ? 'emptyCircle' : 'circle',
          ...(p.isFlagged ? { itemStyle: { color: FLAGGED, borderColor: FLAGGED } } : {}),
        })),
        markLine: {
          symbol: 'none',
          silent: true,
          data: lines.map((line) => ({
            name: line.label,
            yAxis: line.value,
            lineStyle: { color: line.colour, type: line.dashed ? 'dashed' : 'solid' },
            label: { formatter: '{b}', position: 'end', color: line.colour, fontSize: 9 },
          })),
        },
      },
    ],
  };
}
