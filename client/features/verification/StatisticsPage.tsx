import { Alert, Card, Flex, Segmented, Select, Spin, Typography } from 'antd';
import { useState } from 'react';
import { LoadErrorAlert } from '../../app/LoadErrorAlert.tsx';
import {
  STATISTICS_GROUPS,
  STATISTICS_RESIDUE_TYPES,
} from '../../../core/schemas/verification.schemas.ts';
import { ReferenceSelect } from '../master-data/ReferenceSelect.tsx';
import { referencedDef } from '../master-data/entity-registry.ts';
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

/** /verification — ongoing verification of one equipment, train, residue type or location. */
export function StatisticsPage() {
  const [groupBy, setGroupBy] = useState<Group>('equipment');
  const [key, setKey] = useState<string>('');
  const stats = useStatistics(key ? { groupBy, key } : null);
  const thresholds = useVerificationThresholds();
  return (
    <Flex vertical gap="large">
      <Typography.Title level={3} style={{ margin: 0 }}>
        Ongoing verification
      </Typography.Title>
      <Card>
        <Flex wrap gap="middle" align="center">
          <Segmented<Group>
            aria-label="Group by"
            value={groupBy}
            options={STATISTICS_GROUPS.map((value) => ({ value, label: GROUP_LABELS[value] }))}
            onChange={(value) => {
              setGroupBy(value);
              setKey('');
            }}
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
        </Flex>
      </Card>
      {!key ? (
        <Typography.Text type="secondary">Choose what to follow.</Typography.Text>
      ) : stats.isError ? (
        <LoadErrorAlert title="Could not load the statistics" query={stats} />
      ) : stats.isPending ? (
        <Spin />
      ) : stats.data.count === 0 ? (
        <Alert type="info" showIcon title={`No counted results for ${stats.data.label} yet`} />
      ) : (
        <>
          <Typography.Text>
            {stats.data.label}: {stats.data.count} results, {stats.data.censoredCount} censored
          </Typography.Text>
          <StatisticsCharts stats={stats.data} thresholds={thresholds} />
        </>
      )}
    </Flex>
  );
}
