import { PlusOutlined } from '@ant-design/icons';
import { Button, Empty, Input, Space, Switch, Table, Typography, message } from 'antd';
import type { TableProps } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { actionOf } from '#core/entities/entity.ts';
import { isLimitsEntity } from '#core/limits/archive-impact.ts';
import { ArchiveImpactPanel } from '#client/shared/limits/ArchiveImpactPanel.tsx';
import type { EntityDef } from '#core/entities/entity.ts';
import type { EntityListQuery, EntityRecord } from '#client/shared/master-data/entity-api.ts';
import { describeSaveError } from '#client/api/form-errors.ts';
import { useArchiveEntity, useEntityList } from '#client/shared/master-data/entity-queries.ts';
import { lowerLabel } from '#client/shared/master-data/entity-registry.ts';
import { hasRecordPage, recordPagePath } from '#client/shared/master-data/record-pages.ts';
import { documentColumn } from './document-column.tsx';
import { EntityFormDrawer } from '#client/shared/master-data/EntityFormDrawer.tsx';
import { formatFieldValue } from '#client/shared/master-data/format-value.ts';
import { useNumberFormat } from '#client/shared/use-number-format.ts';
import { isSortable, listFields, toServerOrder } from '#client/shared/master-data/list-columns.ts';
import { useReferenceNames } from '#client/shared/master-data/use-reference-names.ts';
import { useRecordName } from '#client/shared/master-data/use-record-name.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { usePermissions } from '#client/shared/permissions.ts';
import { productionAreaColumn } from './productions/ProductionAreaCell.tsx';
import { linkedAssessmentsColumn } from '#client/shared/change-assessments/linked-assessments.tsx';
import { mocRecordsDef } from '#core/entities/defs/documents.def.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import {
  ControlledRecordDrawer,
  controlledColumn,
  controlledTypeOf,
} from '#client/shared/records/controlled-entity.tsx';
import { LoadErrorAlert } from '#client/shared/LoadErrorAlert.tsx';
import { serverPaging } from '#client/shared/paging.ts';

const DEFAULT_PAGE_LIMIT = 10;

type Editing = { record: EntityRecord | null } | null;
type ArchiveTarget = { record: EntityRecord; restore: boolean } | null;

/** The list of any declared entity: its columns, search, paging, sorting, archive and restore. */
export function EntityListPage({ def }: { def: EntityDef }) {
  const scope = useFacilityScope();
  const permissions = usePermissions();
  const [query, setQuery] = useState<EntityListQuery>({
    pageNumber: 1,
    pageLimit: DEFAULT_PAGE_LIMIT,
  });
  const [searchText, setSearchText] = useState('');
  const [editing, setEditing] = useState<Editing>(null);
  const [archiveTarget, setArchiveTargetState] = useState<ArchiveTarget>(null);
  // Archiving what the limits depend on needs the impact confirmed (issue 9).
  const [impactConfirmed, setImpactConfirmed] = useState(false);
  const [needsConfirmation, setNeedsConfirmation] = useState(false);
  const setArchiveTarget = useCallback((target: ArchiveTarget) => {
    setImpactConfirmed(false);
    setNeedsConfirmation(false);
    setArchiveTargetState(target);
  }, []);
  const impactEntity =
    archiveTarget && !archiveTarget.restore && isLimitsEntity(def.key) ? def.key : null;
  const list = useEntityList(def, query);
  // A controlled record opens by `?record=id` (from My approvals, or its Signatures link).
  const [searchParams, setSearchParams] = useSearchParams();
  const openId = Number(searchParams.get('record')) || null;
  const isControlled = controlledTypeOf(def) !== null;
  const openRecord = (id: number | null) =>
    setSearchParams(id === null ? {} : { record: String(id) });
  const archive = useArchiveEntity(def);
  const label = lowerLabel(def.label);
  const plural = lowerLabel(def.pluralLabel);
  const fields = useMemo(() => listFields(def), [def]);

  // Names of referenced records, so a production lists 'Mixer 1', not 17.
  const nameOf = useReferenceNames(fields);
  // A record's own name in titles and messages (a step's substance: its substance's name).
  const titleOf = useRecordName(def);
  const numbers = useNumberFormat();

  const canAdd = permissions.can(def.resource, actionOf(def, 'add'));
  const canModify = permissions.can(def.resource, actionOf(def, 'modify'));
  const canArchive = permissions.can(def.resource, actionOf(def, 'archive'));

  const columns: TableProps<EntityRecord>['columns'] = [
    ...fields.map((field, index) => ({
      key: field.name,
      dataIndex: field.name,
      title: field.label,
      // The name stays in sight while a wide list scrolls to its last columns.
      fixed: index === 0 ? ('left' as const) : undefined,
      sorter: isSortable(field),
      sortOrder:
        query.sortBy === field.name
          ? query.sortOrder === 'desc'
            ? ('descend' as const)
            : ('ascend' as const)
          : null,
      render: (value: unknown, record: EntityRecord) =>
        field.name === 'name' && hasRecordPage(def) ? (
          <Link to={recordPagePath(def, record.id)}>
            {formatFieldValue(field, value, nameOf, numbers.digits)}
          </Link>
        ) : (
          formatFieldValue(field, value, nameOf, numbers.digits)
        ),
    })),
    ...(def.document ? [documentColumn(def, scope)] : []),
    ...(isControlled && !query.archived
      ? [controlledColumn(def, (record) => openRecord(record.id))]
      : []),
    // A production's total surface area is computed by the server from its equipment.
    ...(def.path === 'productions' && !query.archived ? [productionAreaColumn] : []),
    // The moc register links to the change assessments that evaluate each change (issue 11).
    ...(def.key === mocRecordsDef.key && !query.archived ? [linkedAssessmentsColumn] : []),
    ...(query.archived
      ? [
          {
            key: 'archiveReason',
            dataIndex: 'archiveReason',
            title: 'Archive reason',
          },
        ]
      : []),
    {
      key: 'actions',
      title: 'Actions',
      width: 180,
      render: (_: unknown, record: EntityRecord) =>
        query.archived ? (
          canArchive ? (
            <Button size="small" onClick={() => setArchiveTarget({ record, restore: true })}>
              Restore
            </Button>
          ) : null
        ) : (
          <Space>
            {/* Equipment has a page of its own: images, sampling locations and samples. */}
            {def.path === 'equipments' ? (
              <Link to={`/master-data/equipments/${record.id}`}>Details</Link>
            ) : null}
            {canModify ? (
              <Button size="small" onClick={() => setEditing({ record })}>
                Edit
              </Button>
            ) : null}
            {canArchive ? (
              <Button
                size="small"
                danger
                onClick={() => setArchiveTarget({ record, restore: false })}
              >
                Archive
              </Button>
            ) : null}
          </Space>
        ),
    },
  ];

  // Archiving the last record of the last page leaves that page empty: step back to one
  // that has records.
  const total = list.data?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / query.pageLimit));
  if (list.data && !list.isPlaceholderData && query.pageNumber > lastPage) {
    setQuery((current) => ({ ...current, pageNumber: lastPage }));
  }

  const onTableChange: TableProps<EntityRecord>['onChange'] = (pagination, _filters, sorter) => {
    const single = Array.isArray(sorter) ? sorter[0] : sorter;
    const order = toServerOrder(single?.order);
    setQuery((current) => ({
      ...current,
      pageNumber: pagination.current ?? 1,
      pageLimit: pagination.pageSize ?? DEFAULT_PAGE_LIMIT,
      sortBy: order ? String(single?.columnKey ?? single?.field) : undefined,
      sortOrder: order,
    }));
  };

  async function confirmArchive(reason: string): Promise<void> {
    if (!archiveTarget) return;
    const { record, restore } = archiveTarget;
    try {
      await archive.mutateAsync({
        record,
        reason,
        restore,
        confirmImpact: impactEntity !== null && impactConfirmed,
      });
      void message.success(
        `${def.label} '${titleOf(record)}' ${restore ? 'restored' : 'archived'}`,
      );
      setArchiveTarget(null);
    } catch (error) {
      const problem = describeSaveError(error);
      void message.error(`${problem.title}: ${problem.message}`);
      throw error;
    }
  }

  const emptyText = query.search ? (
    <Empty description={`No ${plural} match “${query.search}”`} />
  ) : query.archived ? (
    <Empty description={`No archived ${plural}`} />
  ) : (
    <Empty description={`No ${plural} yet`}>
      {canAdd ? (
        <Button type="primary" onClick={() => setEditing({ record: null })}>
          Add {label}
        </Button>
      ) : null}
    </Empty>
  );

  return (
    <section aria-label={def.pluralLabel}>
      <Space
        style={{ width: '100%', justifyContent: 'space-between', marginBottom: 8 }}
        wrap
        align="start"
      >
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {query.archived ? `Archived ${plural}` : def.pluralLabel}
          </Typography.Title>
          <Typography.Text type="secondary">{def.description}</Typography.Text>
        </div>
        {canAdd && !query.archived ? (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditing({ record: null })}
          >
            Add {label}
          </Button>
        ) : null}
      </Space>
      <Space style={{ marginBottom: 16 }} wrap>
        <Input.Search
          aria-label={`Search ${plural}`}
          placeholder={`Search ${plural}`}
          allowClear
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
          onSearch={(value) =>
            setQuery((current) => ({
              ...current,
              search: value.trim() || undefined,
              pageNumber: 1,
            }))
          }
          style={{ width: 280 }}
        />
        <Space>
          <Switch
            aria-label="Show archived"
            checked={query.archived ?? false}
            onChange={(checked) =>
              setQuery((current) => ({ ...current, archived: checked, pageNumber: 1 }))
            }
          />
          <span>Archived</span>
        </Space>
      </Space>
      {list.isError ? (
        <LoadErrorAlert
          title={`Could not load ${plural}`}
          query={list}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <Table<EntityRecord>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.data ?? []}
        loading={list.isFetching}
        onChange={onTableChange}
        locale={{ emptyText: list.isPending ? ' ' : emptyText }}
        pagination={serverPaging(query, list.data?.total ?? 0, { one: label, many: plural })}
        scroll={{ x: 'max-content' }}
      />
      {editing ? (
        <EntityFormDrawer
          key={editing.record?.id ?? 'new'}
          def={def}
          record={editing.record}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {isControlled && openId !== null ? (
        <ControlledRecordDrawer def={def} id={openId} onClose={() => openRecord(null)} />
      ) : null}
      <ReasonDialog
        open={archiveTarget !== null}
        danger={!archiveTarget?.restore}
        title={
          archiveTarget
            ? `${archiveTarget.restore ? 'Restore' : 'Archive'} ${label} '${titleOf(archiveTarget.record)}'`
            : ''
        }
        okText={archiveTarget?.restore ? 'Restore' : 'Archive'}
        description={
          archiveTarget?.restore
            ? `The ${label} returns to the list and to the limits.`
            : `Archived records are kept and can be restored from the archived list. The ${label} leaves the limits until then.`
        }
        canSubmit={impactEntity === null || !needsConfirmation || impactConfirmed}
        managedByCaller
        onSubmit={({ reason }) => confirmArchive(reason)}
        onClose={() => setArchiveTarget(null)}
        intro={
          impactEntity && archiveTarget ? (
            <ArchiveImpactPanel
              entity={impactEntity}
              name={String(archiveTarget.record.name)}
              confirmed={impactConfirmed}
              onConfirmedChange={setImpactConfirmed}
              onNeedsConfirmation={setNeedsConfirmation}
            />
          ) : null
        }
      />
    </section>
  );
}
