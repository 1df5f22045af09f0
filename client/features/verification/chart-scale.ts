/** Plot geometry shared by the small SVG charts of the statistics page (no chart package). */
export const CHART = { width: 640, height: 220, left: 44, right: 12, top: 12, bottom: 24 } as const;

export interface Scale {
  x: (index: number) => number;
  y: (value: number) => number;
  ticks: number[];
}

/** A linear scale over n points and the values (lines included) the chart must show. */
export function chartScale(count: number, values: number[]): Scale {
  const finite = values.filter((v) => Number.isFinite(v));
  const high = Math.max(1, ...finite) * 1.1;
  const low = Math.min(0, ...finite);
  const plotW = CHART.width - CHART.left - CHART.right;
  const plotH = CHART.height - CHART.top - CHART.bottom;
  const step = count > 1 ? plotW / (count - 1) : 0;
  const y = (value: number) => CHART.top + plotH - ((value - low) / (high - low)) * plotH;
  const x = (index: number) => CHART.left + (count > 1 ? index * step : plotW / 2);
  const ticks = [0, 1, 2, 3, 4].map((i) => low + ((high - low) * i) / 4);
  return { x, y, ticks };
}

/** One short sentence of numbers for a chart's aria-label. */
export function fmt(value: number | null): string {
  return value === null ? 'none' : value.toFixed(1);
}
