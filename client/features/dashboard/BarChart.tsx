import { Link } from 'react-router';
import type { Bar } from './dashboard-tiles.ts';

const TONES: Record<Bar['tone'], string> = {
  good: '#389e0d',
  warn: '#d48806',
  bad: '#cf1322',
  neutral: '#1677ff',
};

/**
 * A horizontal bar chart drawn as SVG (no chart library, so Home stays light): one row per bar,
 * its label a link to the records behind it when there is a list for them.
 */
export function BarChart({ bars, label }: { bars: readonly Bar[]; label: string }) {
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  return (
    <div className="dashboard-bars" role="list" aria-label={label}>
      {bars.map((bar) => {
        const width = (bar.value / max) * 100;
        const text = `${bar.label}: ${bar.value}`;
        return (
          <div key={bar.label} role="listitem" className="dashboard-bar">
            <span className="dashboard-bar-label">
              {bar.to ? <Link to={bar.to}>{bar.label}</Link> : bar.label}
            </span>
            <svg width="100%" height="14" aria-hidden="true" preserveAspectRatio="none">
              <title>{text}</title>
              <rect x="0" y="2" width={`${width}%`} height="10" rx="2" fill={TONES[bar.tone]} />
            </svg>
            <span className="dashboard-bar-value">{bar.value}</span>
          </div>
        );
      })}
    </div>
  );
}
