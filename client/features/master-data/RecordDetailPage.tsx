import { Alert, Breadcrumb, Card, Result, Spin, Tabs, Typography } from 'antd';
import type { TabsProps } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import type { EntityDef } from '#core/entities/entity.ts';
import { isApiError } from '#client/api/api-error.ts';
import { LoadErrorAlert } from '#client/shared/LoadErrorAlert.tsx';
import { getEntity, type EntityRecord } from '#client/shared/master-data/entity-api.ts';
import { entityKeys } from '#client/shared/query-keys.ts';
import { RecordHistory } from '#client/shared/audit-log/RecordHistory.tsx';
import { defByPath, lowerLabel } from '#client/shared/master-data/entity-registry.ts';
import { hasRecordPage, MASTER_DATA_BASE } from '#client/shared/master-data/record-pages.ts';
import { RecordFields } from './RecordFields.tsx';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { WhereUsedPanel } from './WhereUsedPanel.tsx';
import { ActiveHbelPanel } from './hbel-library/ActiveHbelPanel.tsx';
import { ApiProcessPanel } from './api-productions/ApiProcessPanel.tsx';

/** What a link to a record that is not in this facility (or never was) shows. */
export function NoSuchRecord({ def }: { def: EntityDef | undefined }) {
  const list = def ? `${MASTER_DATA_BASE}/${def.path}` : MASTER_DATA_BASE;
  return (
    <Result
      status="404"
      title={def ? `No such ${lowerLabel(def.label)} in this facility` : 'No such record'}
      subTitle="The link may name a record of another facility, or one that does not exist."
      extra={<Link to={list}>{def ? def.pluralLabel : 'Master data'}</Link>}
    />
  );
}

/** The tabs of a record's page: its fields, where it is used, and its audit trail. */
export function recordTabs(def: EntityDef, record: EntityRecord): TabsProps['items'] {
  return [
    { key: 'details', label: 'Details', children: <RecordFields def={def} record={record} /> },
    // An active's PDE may come from the plan's HBEL library (issue 32).
    ...(def.key === 'actives'
      ? [{ key: 'hbel', label: 'HBEL library', children: <ActiveHbelPanel record={record} /> }]
      : []),
    // An API production's steps, their equipment and substances (issue 32).
    ...(def.key === 'apiProductions'
      ? [
          {
            key: 'process',
            label: 'Process steps',
            children: <ApiProcessPanel production={record} />,
          },
        ]
      : []),
    {
      key: 'where-used',
      label: 'Where used',
      children: <WhereUsedPanel def={def} id={record.id} />,
    },
    { key: 'history', label: 'History', children: <RecordHistory def={def} id={record.id} /> },
  ];
}

/** A record's read-only page: /master-data/{path}/{id}. */
export function RecordDetailPage() {
  const params = useParams();
  const def = defByPath(params.path);
  const id = Number(params.id);
  const isKnown = def !== undefined && hasRecordPage(def) && Number.isInteger(id) && id > 0;
  if (!isKnown) return <NoSuchRecord def={def} />;
  return <RecordPage def={def} id={id} />;
}

function RecordPage({ def, id }: { def: EntityDef; id: number }) {
  const scope = useFacilityScope();
  const record = useQuery({
    queryKey: entityKeys.detail(scope.facilityId, def, id),
    queryFn: ({ signal }) => getEntity(scope, def, id, signal),
  });
  if (record.isPending) return <Spin />;
  if (record.isError) {
    if (isApiError(record.error) && record.error.kind === 'resource-not-found')
      return <NoSuchRecord def={def} />;
    return <LoadErrorAlert title={`Could not load the ${lowerLabel(def.label)}`} query={record} />;
  }
  const name = String(record.data.name ?? `${def.label} ${id}`);
  return (
    <Card>
      <Breadcrumb
        items={[
          { title: <Link to={`${MASTER_DATA_BASE}/${def.path}`}>{def.pluralLabel}</Link> },
          { title: name },
        ]}
      />
      <Typography.Title level={2}>{name}</Typography.Title>
      <ArchivedNotice def={def} record={record.data} />
      <Tabs destroyOnHidden items={recordTabs(def, record.data)} />
    </Card>
  );
}

/** An archived record is kept, and shown, but it is out of the lists and the limits. */
export function ArchivedNotice({ def, record }: { def: EntityDef; record: EntityRecord }) {
  if (!record.archivedAt) return null;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      title={`This ${lowerLabel(def.label)} is archived`}
      description={`Reason: ${record.archiveReason ?? 'none given'}. It is left out of the limits until it is restored from the archived list.`}
    />
  );
}
