import * as echarts from 'echarts';

/*
 * Charts inside report PDFs: the options of core/charts, the very ones the screens draw, rendered
 * to SVG on the server, which pdfmake draws. Every chart is disposed of after rendering: an
 * undisposed ECharts instance keeps the process from exiting.
 */

export function renderChartSvg(option: echarts.EChartsOption, width: number, height: number) {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({ animation: false, ...option });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}
