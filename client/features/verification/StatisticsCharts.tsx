import { Alert, Card, Flex, List, Statistic, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { ewmaChart, individualsChart, movingRangeChart } from '#core/charts/statistics-charts.ts';
import { PPU_SUBSTITUTION_LABEL, type TStatistics } from '#core/schemas/verification.schemas.ts';
import { statisticsAlertLabel } from '#core/labels/enum-labels.ts';
import { ChartFigure } from '#client/shared/ChartFigure.tsx';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import type { VerificationThresholds } from './verification-api.ts';

/**
 * Individuals, moving range, EWMA, capability and alerts of one group (spec: ongoing
 * verification). The charts are those of core/charts, which the annual summary prints too.
 */
export function StatisticsCharts({
  stats,
  thresholds,
}: {
  stats: TStatistics;
  thresholds: VerificationThresholds;
}) {
  const { formatDate, formatDateTime } = useDateFormat();
  const charts = useMemo(
    () => [
      individualsChart(stats, thresholds, formatDate),
      movingRangeChart(stats, formatDate),
      ewmaChart(stats, formatDate),
    ],
    [stats, thresholds, formatDate],
  );
  return (
    <Flex vertical gap="middle">
      {charts.map((chart) => (
        <Card key={chart.title}>
          <ChartFigure chart={chart} height={240} />
        </Card>
      ))}
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
              <Tag color={alert.kind.includes('ction') ? 'red' : 'orange'}>
                {statisticsAlertLabel(alert.kind)}
              </Tag>
              {alert.message}
              <Typography.Text type="secondary" style={{ marginInlineStart: 8 }}>
                {formatDateTime(alert.takenAt)}
              </Typography.Text>
            </List.Item>
          )}
        />
      </Card>
    </Flex>
  );
}

/**
 * Ppu, its lower bound and how they were estimated; with censored results the half-bound
 * substitution figure below, labelled, for comparison only.
 */
function PpuSummary({ stats }: { stats: TStatistics }) {
  if (stats.ppu === null)
    return (
      <Alert
        type="info"
        showIcon
        title={
          stats.statement ??
          'No capability index: too few results, or too few of them with an exact value'
        }
      />
    );
  const meets = stats.ppuLower95 !== null && stats.ppuLower95 >= stats.ppuTarget;
  return (
    <Flex vertical gap="small">
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
      {stats.ppuMethod && <Typography.Text type="secondary">{stats.ppuMethod}</Typography.Text>}
      {stats.ppuSubstitution !== null && (
        <Typography.Text type="secondary">
          {PPU_SUBSTITUTION_LABEL}: Ppu {stats.ppuSubstitution.toFixed(2)}, lower 95 % bound{' '}
          {stats.ppuSubstitutionLower95 === null ? '—' : stats.ppuSubstitutionLower95.toFixed(2)}
        </Typography.Text>
      )}
      {stats.statement && <Alert type="info" showIcon title={stats.statement} />}
    </Flex>
  );
}
