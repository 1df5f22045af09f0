import type { EChartsOption } from 'echarts';
import { useEffect, useRef, useState } from 'react';
import type { ECharts } from 'echarts/core';

/**
 * One chart of core/charts drawn by ECharts (SVG), the same option a report renders on the
 * server. The container carries the chart's aria-label (the picture itself is not readable);
 * the chart follows its container's width and is disposed of with the component.
 */
export function EChart({
  option,
  label,
  height,
  onItemClick,
}: {
  option: EChartsOption;
  label: string;
  height: number;
  /** Called with the index of the bar or point clicked. */
  onItemClick?: (dataIndex: number) => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const [chart, setChart] = useState<ECharts | null>(null);

  useEffect(() => {
    let instance: ECharts | null = null;
    let observer: ResizeObserver | null = null;
    let isGone = false;
    void import('./echarts-svg.ts').then(({ echarts }) => {
      const element = container.current;
      if (isGone || !element) return;
      instance = echarts.init(element, null, { renderer: 'svg' });
      observer = new ResizeObserver(() => instance?.resize());
      observer.observe(element);
      setChart(instance);
    });
    return () => {
      isGone = true;
      observer?.disconnect();
      instance?.dispose();
    };
  }, []);

  useEffect(() => {
    chart?.setOption(option, { notMerge: true });
  }, [chart, option]);

  useEffect(() => {
    if (!chart || !onItemClick) return;
    const onClick = (params: { dataIndex: number }) => onItemClick(params.dataIndex);
    chart.on('click', onClick);
    return () => {
      chart.off('click', onClick);
    };
  }, [chart, onItemClick]);

  return <div ref={container} role="img" aria-label={label} style={{ width: '100%', height }} />;
}
