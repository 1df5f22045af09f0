import type { EChartsOption } from 'echarts';

/** A chart with its title and the sentence of numbers a screen reader (and a test) reads. */
export interface ChartSpec {
  title: string;
  summary: string;
  option: EChartsOption;
}
