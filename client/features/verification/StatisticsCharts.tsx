import { Alert, Card, Flex, List, Statistic, Tag, Typography } from 'antd';
import type { TStatistics } from '../../../core/schemas/verification.schemas.ts';
import { fmt } from './chart-scale.ts';
import { LineChart, type ChartLine } from './LineChart.tsx';
import type { VerificationThresholds } from './verification-api.ts';

const line = (label: string, value: number | null, colour: string, dashed = true): ChartLine[] =>
  value === null ? [] : [{ label, value, colour, dashed }];

/** Individuals, moving range, EWMA, capability and alerts of one group (spec: ongoing verification). */
export function StatisticsCharts({
  stats,
  thresholds,
}: {
  stats: TStatistics;
  thresholds: VerificationThresholds;
}) {
  const points = stats.points;
  const censored = points.filter((p) => p.censoredBelow).length;
  const aboveUcl =
    stats.ucl === null ? 0 : points.filter((p) => p.percentOfLimit > stats.ucl!).length;
  const ranges = points.flatMap((p) => (p.movingRange === null ? [] : [p]));
  const ewmaAbove =
    stats.ewmaUcl === null ? 0 : points.filter((p) => p.ewma > stats.ewmaUcl!).length;
  return (
    <Flex vertical gap="middle">
      <Card>
        <LineChart
          title="Individuals (% of limit)"
          unit="%"
          summary={`${points.length} results, ${censored} censored, mean ${fmt(stats.mean)} %, UCL ${fmt(stats.ucl)} %, ${aboveUcl} above the UCL`}
          points={points.map((p) => ({
            value: p.percentOfLimit,
            hollow: p.censoredBelow,
            flagged: p.alerts.length > 0,
            title: `${p.label} ${p.takenAt}: ${p.censoredBelow ? '≤ ' : ''}${p.percentOfLimit.toFixed(1)} %${p.historical ? ' (historical)' : ''}`,
          }))}
          lines={[
            { label: 'Limit 100 %', value: 100, colour: '#cf1322' },
            {
              label: `Action ${thresholds.actionPercent} %`,
              value: thresholds.actionPercent,
              colour: '#d4380d',
              dashed: true,
            },
            {
              label: `Alert ${thresholds.alertPercent} %`,
              value: thresholds.alertPercent,
              colour: '#d48806',
              dashed: true,
            },
            ...line('UCL', stats.ucl, '#722ed1'),
            ...line('Mean', stats.mean, '#389e0d', false),
          ]}
        />
      </Card>
      <Card>
        <LineChart
          title="Moving range"
          summary={`${ranges.length} moving ranges, mean moving range ${fmt(stats.mrBar)}`}
          points={ranges.map((p) => ({
            value: p.movingRange ?? 0,
            title: `${p.label}: ${(p.movingRange ?? 0).toFixed(1)}`,
          }))}
          lines={[
            ...line('MR̄', stats.mrBar, '#389e0d', false),
            ...line('UCL', stats.mrBar === null ? null : 3.267 * stats.mrBar, '#722ed1'),
          ]}
        />
      </Card>
      <Card>
        <LineChart
          title={`EWMA (λ = ${stats.ewmaLambda})`}
          unit="%"
          summary={`EWMA UCL ${fmt(stats.ewmaUcl)} %, ${ewmaAbove} points above it`}
          points={points.map((p) => ({
            value: p.ewma,
            flagged: stats.ewmaUcl !== null && p.ewma > stats.ewmaUcl,
            title: `${p.label}: EWMA ${p.ewma.toFixed(1)} %`,
          }))}
          lines={[
            ...line('UCL', stats.ewmaUcl, '#722ed1'),
            ...line('Mean', stats.mean, '#389e0d', false),
          ]}
        />
      </Card>
      <Card title="Capability">
        <PpuSummary stats={stats} />
      </Card>
      <Card title="Alerts">
        <List
          aria-label="Alerts"
          size="small"
          dataSource={stats.alerts}
          locale={{ emptyText: 'No alerts' }}
          renderItem={(alert) => (
            <List.Item>
              <Tag color={alert.kind.includes('ction') ? 'red' : 'orange'}>{alert.kind}</Tag>
              {alert.message}
              <Typography.Text type="secondary" style={{ marginInlineStart: 8 }}>
                {alert.takenAt}
              </Typography.Text>
            </List.Item>
          )}
        />
      </Card>
    </Flex>
  );
}

function PpuSummary({ stats }: { stats: TStatistics }) {
  if (stats.statement) return <Alert type="info" showIcon title={stats.statement} />;
  if (stats.ppu === null)
    return (
      <Alert
        type="info"
        showIcon
        title="No capability index: too few results, or half or more of them censored"
      />
    );
  const meets = stats.ppuLower95 !== null && stats.ppuLower95 >= stats.ppuTarget;
  return (
    <Flex
      gap="large"
      wrap
      role="img"
      aria-label={`Ppu ${stats.ppu.toFixed(2)}, lower 95 % bound ${stats.ppuLower95 === null ? 'none' : stats.ppuLower95.toFixed(2)}, target ${stats.ppuTarget}: ${meets ? 'meets the target' : 'below the target'}`}
    >
      <Statistic title="Ppu" value={stats.ppu} precision={2} />
      <Statistic
        title="Lower 95 % bound"
        value={stats.ppuLower95 ?? '—'}
        precision={2}
        valueStyle={{ color: meets ? '#389e0d' : '#cf1322' }}
      />
      <Statistic title="Target" value={stats.ppuTarget} />
    </Flex>
  );
}
