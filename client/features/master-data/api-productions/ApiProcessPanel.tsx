import { Button, Empty, Skeleton, Space, Table, Tag, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useMemo, useState } from 'react';
import { apiProcessStepsDef, apiStepSubstancesDef } from '#core/entities/defs/index.ts';
import { actionOf, type EntityDef } from '#core/entities/entity.ts';
import { LoadErrorAlert } from '#client/shared/LoadErrorAlert.tsx';
import { EntityFormDrawer } from '#client/shared/master-data/EntityFormDrawer.tsx';
import type { EntityRecord } from '#client/shared/master-data/entity-api.ts';
import { useEntityOptions } from '#client/shared/master-data/entity-queries.ts';
import { useReferenceNames } from '#client/shared/master-data/use-reference-names.ts';
import { useRecordName } from '#client/shared/master-data/use-record-name.ts';
import { usePermissions } from '#client/shared/permissions.ts';

/*
 * An API production's process (issue 32): its steps in order, the equipment each runs on and
 * the substances present at each. Steps and substances are records of their own (ApiEquipment,
 * ApiProduct), edited in the same record drawer as all master data, with its reason dialog,
 * version check and field errors.
 */

interface Editing {
  def: EntityDef;
  record: EntityRecord | null;
  preset?: Record<string, unknown>;
}

const REFERENCED = [...apiProcessStepsDef.fields, ...apiStepSubstancesDef.fields];

const ids = (value: unknown): number[] => (Array.isArray(value) ? value.map(Number) : []);

export function ApiProcessPanel({ production }: { production: EntityRecord }) {
  const permissions = usePermissions();
  const steps = useEntityOptions(apiProcessStepsDef);
  const substances = useEntityOptions(apiStepSubstancesDef);
  const nameOf = useReferenceNames(REFERENCED);
  // A mapping is named by its active or intermediate, as where-used lists and the drawer name it.
  const substanceName = useRecordName(apiStepSubstancesDef);
  const [editing, setEditing] = useState<Editing | null>(null);
  const can = (def: EntityDef, operation: 'add' | 'modify') =>
    permissions.can(def.resource, actionOf(def, operation));

  const mine = useMemo(
    () =>
      (steps.data?.data ?? [])
        .filter((step) => step.apiProductionId === production.id)
        .sort((a, b) => Number(a.stepNumber) - Number(b.stepNumber)),
    [steps.data, production.id],
  );
  const atStep = useMemo(() => {
    const byStep = new Map<number, EntityRecord[]>();
    for (const mapping of substances.data?.data ?? []) {
      const list = byStep.get(Number(mapping.stepId)) ?? [];
      list.push(mapping);
      byStep.set(Number(mapping.stepId), list);
    }
    return byStep;
  }, [substances.data]);

  if (steps.forbidden)
    return (
      <Typography.Text type="secondary">
        Your role does not let you view the process steps of API productions.
      </Typography.Text>
    );
  if (steps.isPending) return <Skeleton active />;
  if (steps.isError)
    return <LoadErrorAlert title="Could not load the process steps" query={steps} />;

  const nextNumber = mine.reduce((n, step) => Math.max(n, Number(step.stepNumber)), 0) + 1;
  const addStep = () =>
    setEditing({
      def: apiProcessStepsDef,
      record: null,
      preset: { apiProductionId: production.id, stepNumber: nextNumber },
    });

  const columns: TableProps<EntityRecord>['columns'] = [
    { key: 'step', title: 'Step', dataIndex: 'stepNumber', width: 70 },
    { key: 'operation', title: 'Operation', dataIndex: 'name' },
    {
      key: 'equipment',
      title: 'Equipment',
      render: (_, step) =>
        ids(step.equipmentIds)
          .map((id) => nameOf('equipment', id))
          .join(', '),
    },
    {
      key: 'substances',
      title: 'Substances present',
      render: (_, step) => (
        <Space size={[4, 4]} wrap>
          {(atStep.get(step.id) ?? []).map((mapping) => (
            <Tag
              key={mapping.id}
              color={typeof mapping.activeId === 'number' ? 'blue' : 'purple'}
              style={can(apiStepSubstancesDef, 'modify') ? { cursor: 'pointer' } : undefined}
              onClick={
                can(apiStepSubstancesDef, 'modify')
                  ? () => setEditing({ def: apiStepSubstancesDef, record: mapping })
                  : undefined
              }
            >
              {substanceName(mapping)}
            </Tag>
          ))}
        </Space>
      ),
    },
    {
      key: 'actions',
      title: 'Actions',
      width: 200,
      render: (_, step) => (
        <Space>
          {can(apiProcessStepsDef, 'modify') ? (
            <Button
              size="small"
              onClick={() => setEditing({ def: apiProcessStepsDef, record: step })}
            >
              Edit step
            </Button>
          ) : null}
          {can(apiStepSubstancesDef, 'add') ? (
            <Button
              size="small"
              onClick={() =>
                setEditing({
                  def: apiStepSubstancesDef,
                  record: null,
                  preset: { apiProductionId: production.id, stepId: step.id },
                })
              }
            >
              Add substance
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <section aria-label="Process steps">
      {mine.length === 0 ? (
        <Empty
          description={
            production.archivedAt
              ? 'This API production has no process steps.'
              : 'No process steps yet. Add each step of the process in order — reaction, crystallisation, drying, milling — with the equipment it runs on; then the substances present at each step.'
          }
        >
          {can(apiProcessStepsDef, 'add') && !production.archivedAt ? (
            <Button type="primary" onClick={addStep}>
              Add the first step
            </Button>
          ) : null}
        </Empty>
      ) : (
        <>
          <Table<EntityRecord>
            rowKey="id"
            size="small"
            pagination={false}
            columns={columns}
            dataSource={mine}
          />
          {can(apiProcessStepsDef, 'add') && !production.archivedAt ? (
            <Button style={{ marginTop: 12 }} onClick={addStep}>
              Add step {nextNumber}
            </Button>
          ) : null}
        </>
      )}
      {editing ? (
        <EntityFormDrawer
          def={editing.def}
          record={editing.record}
          {...(editing.preset ? { preset: editing.preset } : {})}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </section>
  );
}
