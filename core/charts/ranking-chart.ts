import { barChartOption } from './bar-chart.ts';
import type { ChartSpec } from './chart-spec.ts';

/** Enough columns to compare the worst cases; more would crowd a landscape page. */
export const RANKED_BARS = 30;

/** The risk score of the highest-ranked scored products, in rank order (worst-case ranking). */
export function rankingChart(products: readonly { id: string; score: number | null }[]): ChartSpec {
  const scored = products
    .flatMap((p) => (p.score === null ? [] : [{ label: p.id, value: p.score }]))
    .slice(0, RANKED_BARS);
  return {
    title: `Score of the ${scored.length} highest-ranked products`,
    summary: scored.map((bar) => `${bar.label} ${bar.value}`).join(', '),
    option: barChartOption(scored, { layout: 'columns', unit: 'points' }),
  };
}
