import { Alert, Card, Flex, Segmented, Select, Spin, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { LoadErrorAlert } from '#client/shared/LoadErrorAlert.tsx';
import { STATISTICS_GROUPS, STATISTICS_RESIDUE_TYPES } from '#core/schemas/verification.schemas.ts';
import { ReferenceSelect } from '#client/shared/master-data/ReferenceSelect.tsx';
import { referencedDef } from '#client/shared/master-data/entity-registry.ts';
import { FacilityDateRange } from '#client/shared/facility-date-inputs.tsx';
import { StatisticsCharts } from './StatisticsCharts.tsx';
import { useStatistics, useVerificationThresholds } from './verification-api.ts';

type Group = (typeof STATISTICS_GROUPS)[number];

const GROUP_LABELS: Record<Group, string> = {
  equipment: 'Equipment',
  production: 'Production',
  residueType: 'Residue type',
  location: 'Sampling location',
};

// The declared entity whose records are the items of a group (residue types are a fixed list).
const GROUP_ENTITIES: Record<Exclude<Group, 'residueType'>, string> = {
  equipment: 'equipment',
  production: 'productions',
  location: 'samplingLocations',
};

const isGroup = (value: string | null): value is Group =>
  (STATISTICS_GROUPS as readonly (string | null)[]).includes(value);
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayOrNull = (value: string | null) => (value && DAY.test(value) ? value : null);

/**
 * /verification — ongoing verification of one equipment, train, residue type or location, over
 * a range of days. What is shown is kept in the address (groupBy, key, from, to), so a link or
 * a reload shows the same charts.
 */
export function StatisticsPage() {
  const [params, setParams] = useSearchParams();
  const groupByParam = params.get('groupBy');
  const groupBy: Group = isGroup(groupByParam) ? groupByParam : 'equipment';
  const key = params.get('key') ?? '';
  const from = dayOrNull(params.get('from'));
  const to = dayOrNull(params.get('to'));
  const show = (change: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [name, value] of Object.entries(change))
          if (value) next.set(name, value);
          else next.delete(name);
        return next;
      },
      { replace: true },
    );
  const setKey = (value: string) => show({ key: value });
  const stats = useStatistics(
    key ? { groupBy, key, ...(from ? { from } : {}), ...(to ? { to } : {}) } : null,
  );
  const thresholds = useVerificationThresholds();
  return (
    <Flex vertical gap="large">
      <Flex justify="space-between" align="center" wrap>
        <Typography.Title level={3} style={{ margin: 0 }}>
          Ongoing verification
        </Typography.Title>
        <Link to="/verification/results-import">Import results from the laboratory</Link>
      </Flex>
      <Card>
        <Flex wrap gap="middle" align="center">
          <Segmented<Group>
            aria-label="Group by"
            value={groupBy}
            options={STATISTICS_GROUPS.map((value) => ({ value, label: GROUP_LABELS[value] }))}
            onChange={(value) => show({ groupBy: value, key: null })}
          />
          <div style={{ minWidth: 280 }}>
            {groupBy === 'residueType' ? (
              <Select
                aria-label="Item"
                style={{ width: '100%' }}
                placeholder="Choose residue type"
                value={key || null}
                options={STATISTICS_RESIDUE_TYPES.map((value) => ({ value, label: value }))}
                onChange={(value: string | null) => setKey(value ?? '')}
              />
            ) : (
              <ReferenceSelect
                key={groupBy}
                aria-label="Item"
                def={referencedDef(GROUP_ENTITIES[groupBy])}
                value={key ? Number(key) : null}
                onChange={(value) => setKey(typeof value === 'number' ? String(value) : '')}
              />
            )}
          </div>
          <FacilityDateRange from={from} to={to} onChange={(range) => show(range)} />
        </Flex>
      </Card>
      {!key ? (
        <Typography.Text type="secondary">Choose what to follow.</Typography.Text>
      ) : stats.isError ? (
        <LoadErrorAlert title="Could not load the statistics" query={stats} />
      ) : stats.isPending ? (
        <Spin />
      ) : stats.data.count === 0 ? (
        <Alert
          type="info"
          showIcon
          title={`No counted results for ${stats.data.label}${from || to ? ' in these dates' : ' yet'}`}
        />
      ) : (
        <>
          <Typography.Text>
            {stats.data.label}: {stats.data.count} results, {stats.data.censoredCount} below LOQ,{' '}
            {stats.data.censoredAboveCount} above the upper limit
          </Typography.Text>
          <StatisticsCharts stats={stats.data} thresholds={thresholds} />
        </>
      )}
    </Flex>
  );
}
