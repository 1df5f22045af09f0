import { createRequire } from 'node:module';
import type * as Echarts from 'echarts';

// ECharts is loaded on the first chart, not with the server: its ES modules take seconds to
// load, which every start and every test file paid. Its CommonJS bundle is one file.
let loaded: typeof Echarts | undefined;
const echarts = (): typeof Echarts =>
  (loaded ??= createRequire(import.meta.url)('echarts') as typeof Echarts);

/*
 * Charts inside report PDFs: the options of core/charts, the very ones the screens draw, rendered
 * to SVG on the server, which pdfmake draws. Every chart is disposed of after rendering: an
 * undisposed ECharts instance keeps the process from exiting.
 */

export function renderChartSvg(option: Echarts.EChartsOption, width: number, height: number) {
  const chart = echarts().init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({ animation: false, ...option });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}
