import type { ChartSpec } from '#core/charts/chart-spec.ts';
import { EChart } from './EChart.tsx';

/** A chart of core/charts under its title, named by its numbers for a screen reader. */
export function ChartFigure({ chart, height }: { chart: ChartSpec; height: number }) {
  return (
    <figure style={{ margin: 0 }}>
      <figcaption style={{ fontWeight: 600 }}>{chart.title}</figcaption>
      <EChart option={chart.option} label={`${chart.title}: ${chart.summary}`} height={height} />
    </figure>
  );
}
