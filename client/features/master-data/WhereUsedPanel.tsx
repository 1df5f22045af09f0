import { Empty, List, Skeleton, Typography } from 'antd';
import { Link } from 'react-router';
import type { EntityDef } from '#core/entities/entity.ts';
import type { TWhereUsedGroup } from '#core/schemas/where-used.schemas.ts';
import { LoadErrorAlert } from '#client/shared/LoadErrorAlert.tsx';
import { lowerLabel } from '#client/shared/master-data/entity-registry.ts';
import { usingRecordPath } from '#client/shared/master-data/record-pages.ts';
import { useWhereUsed } from './where-used-api.ts';

function UsingGroup({ group }: { group: TWhereUsedGroup }) {
  const more = group.total - group.records.length;
  return (
    <section aria-label={group.label} style={{ marginBottom: 16 }}>
      <Typography.Title level={5} style={{ marginBottom: 0 }}>
        {group.label} ({group.total})
      </Typography.Title>
      <Typography.Text type="secondary">By {lowerLabel(group.field)}</Typography.Text>
      <List
        size="small"
        dataSource={group.records}
        rowKey="id"
        renderItem={(record) => {
          const to = usingRecordPath(group.entity, record);
          return <List.Item>{to ? <Link to={to}>{record.name}</Link> : record.name}</List.Item>;
        }}
        footer={more > 0 ? `and ${more} more` : undefined}
      />
    </section>
  );
}

/** The live records of the facility that use this one, kind by kind. */
export function WhereUsedPanel({ def, id }: { def: EntityDef; id: number }) {
  const used = useWhereUsed(def, id);
  const label = lowerLabel(def.label);
  if (used.isPending) return <Skeleton active />;
  if (used.isError) {
    return <LoadErrorAlert title={`Could not load where the ${label} is used`} query={used} />;
  }
  return (
    <section aria-label="Where used">
      {used.data.usedBy.length === 0 ? (
        <Empty description={`Nothing you can view in this facility uses this ${label}.`} />
      ) : (
        used.data.usedBy.map((group) => (
          <UsingGroup key={`${group.entity}:${group.field}`} group={group} />
        ))
      )}
    </section>
  );
}
