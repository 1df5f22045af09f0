import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

/*
 * ECharts with only what the options of core/charts use (bar and line series, grid, tooltip,
 * mark lines) and the SVG renderer the server renders with too: a fraction of the full package,
 * loaded on first use so the screens without a chart never download it.
 */
echarts.use([BarChart, LineChart, GridComponent, MarkLineComponent, TooltipComponent, SVGRenderer]);

export { echarts };
