import { CHART, chartScale } from './chart-scale.ts';

export interface ChartLine {
  label: string;
  value: number;
  colour: string;
  dashed?: boolean;
}

export interface ChartPoint {
  value: number;
  /** Drawn hollow: the value lies below its bound (censored). */
  hollow?: boolean;
  /** Drawn red: the point breaks a rule. */
  flagged?: boolean;
  title: string;
}

/**
 * A small control chart: points joined in time order, horizontal lines (centre, limits), and a
 * summary in aria-label so a screen reader (and a test) reads what the picture shows.
 */
export function LineChart(props: {
  title: string;
  summary: string;
  points: ChartPoint[];
  lines: ChartLine[];
  unit?: string;
}) {
  const { points, lines } = props;
  const scale = chartScale(points.length, [
    ...points.map((p) => p.value),
    ...lines.map((l) => l.value),
  ]);
  const path = points
    .map((p, i) => `${i === 0 ? 'M' : 'L'}${scale.x(i)},${scale.y(p.value)}`)
    .join(' ');
  const right = CHART.width - CHART.right;
  return (
    <figure style={{ margin: 0 }}>
      <figcaption style={{ fontWeight: 600 }}>{props.title}</figcaption>
      <svg
        role="img"
        aria-label={`${props.title}: ${props.summary}`}
        viewBox={`0 0 ${CHART.width} ${CHART.height}`}
        style={{ width: '100%', maxWidth: CHART.width, height: 'auto' }}
      >
        {scale.ticks.map((tick) => (
          <g key={tick}>
            <line
              x1={CHART.left}
              x2={right}
              y1={scale.y(tick)}
              y2={scale.y(tick)}
              stroke="#f0f0f0"
            />
            <text x={CHART.left - 4} y={scale.y(tick) + 4} fontSize={10} textAnchor="end">
              {Math.round(tick)}
              {props.unit ?? ''}
            </text>
          </g>
        ))}
        {lines.map((line) => (
          <g key={line.label}>
            <line
              x1={CHART.left}
              x2={right}
              y1={scale.y(line.value)}
              y2={scale.y(line.value)}
              stroke={line.colour}
              strokeDasharray={line.dashed ? '6 4' : undefined}
            />
            <text
              x={right - 2}
              y={scale.y(line.value) - 3}
              fontSize={10}
              textAnchor="end"
              fill={line.colour}
            >
              {line.label}
            </text>
          </g>
        ))}
        <path d={path} fill="none" stroke="#1677ff" strokeWidth={1.5} />
        {points.map((p, i) => (
          <circle
            key={i}
            cx={scale.x(i)}
            cy={scale.y(p.value)}
            r={4}
            fill={p.hollow ? 'white' : p.flagged ? '#cf1322' : '#1677ff'}
            stroke={p.flagged ? '#cf1322' : '#1677ff'}
            strokeWidth={1.5}
          >
            <title>{p.title}</title>
          </circle>
        ))}
      </svg>
    </figure>
  );
}
