import { useCallback, useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { barChartOption, barRowsHeight } from '#core/charts/bar-chart.ts';
import { EChart } from '#client/shared/EChart.tsx';
import type { Bar } from './dashboard-tiles.ts';

/**
 * A tile's bar chart (the ECharts option a report would print), each bar opening the records
 * behind it. Below it the same bars as links with their counts: what a keyboard or screen reader
 * user follows, since the bars themselves take only a pointer.
 */
export function DashboardBars({ bars, label }: { bars: readonly Bar[]; label: string }) {
  const navigate = useNavigate();
  const option = useMemo(() => barChartOption(bars, { layout: 'rows' }), [bars]);
  const open = useCallback(
    (index: number) => {
      const to = bars[index]?.to;
      if (to) void navigate(to);
    },
    [bars, navigate],
  );
  return (
    <>
      <EChart
        option={option}
        label={`${label}: ${bars.map((bar) => `${bar.label} ${bar.value}`).join(', ')}`}
        height={barRowsHeight(bars.length)}
        onItemClick={open}
      />
      <ul className="dashboard-bar-links" aria-label={label}>
        {bars.map((bar) => (
          <li key={bar.label}>
            {bar.to ? <Link to={bar.to}>{bar.label}</Link> : bar.label}{' '}
            <span className="dashboard-bar-value">{bar.value}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
