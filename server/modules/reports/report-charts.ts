import * as echarts from 'echarts';

/*
 * Charts inside report PDFs: the same library as the screens (ECharts), rendered to SVG on the
 * server, which pdfmake draws. Every chart is disposed of after rendering: an undisposed ECharts
 * instance keeps the process from exiting.
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

/** A bar per category, e.g. the ranking's score per product. */
export function barChartSvg(categories: string[], values: number[], unit: string): string {
  return renderChartSvg(
    {
      grid: { left: 50, right: 10, top: 20, bottom: 70 },
      xAxis: { type: 'category', data: categories, axisLabel: { rotate: 45, fontSize: 9 } },
      yAxis: { type: 'value', name: unit },
      series: [{ type: 'bar', data: values, itemStyle: { color: '#0b6e4f' } }],
    },
    760,
    260,
  );
}
