import { PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Space, Table, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import type {
  PropertyTarget,
  TPropertyDefinition,
} from '#core/schemas/additional-properties.schemas.ts';
import { MEASURES } from '#core/units/measures.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { showSaveError } from '#client/api/form-errors.ts';
import { showSaved } from '../save-feedback.ts';
import { DefinitionFormModal } from './DefinitionFormModal.tsx';
import {
  useChangeDefinition,
  usePropertyDefinitions,
} from '#client/shared/settings/property-definitions-api.ts';

const TARGET_TABS: { target: PropertyTarget; label: string }[] = [
  { target: 'api', label: 'APIs' },
  { target: 'intermediate', label: 'Intermediates' },
  { target: 'product', label: 'Products' },
  { target: 'production', label: 'Productions' },
];

export interface PropertyRights {
  canAdd: boolean;
  canEdit: boolean;
  canArchive: boolean;
}

/** The facility's additional property definitions, one tab per entity that carries them. */
export function AdditionalPropertiesPage(rights: PropertyRights) {
  return (
    <Tabs
      items={TARGET_TABS.map(({ target, label }) => ({
        key: target,
        label,
        children: <DefinitionsTable target={target} {...rights} />,
      }))}
      destroyOnHidden
    />
  );
}

function kindText(definition: TPropertyDefinition): string {
  if (definition.kind === 'quantity' && definition.measure)
    return `quantity: ${MEASURES[definition.measure].label}`;
  if (definition.kind === 'select') return `select: ${definition.options.join(', ')}`;
  return definition.kind;
}

type Pending = { action: 'archive' | 'restore'; definition: TPropertyDefinition };

function DefinitionsTable({
  target,
  canAdd,
  canEdit,
  canArchive,
}: PropertyRights & { target: PropertyTarget }) {
  const definitions = usePropertyDefinitions(target);
  const change = useChangeDefinition(target);
  const [editing, setEditing] = useState<TPropertyDefinition | null | 'new'>(null);
  const [pending, setPending] = useState<Pending | null>(null);

  async function archiveOrRestore(reason: string): Promise<void> {
    if (!pending) return;
    const { action, definition } = pending;
    try {
      await change.mutateAsync({ type: action, key: definition.key, reason });
      showSaved(`Property '${definition.label}'`);
      setPending(null);
    } catch (error) {
      showSaveError(error);
      throw error;
    }
  }

  if (definitions.isError) return <Alert type="error" showIcon title={definitions.error.message} />;
  return (
    <>
      <Space style={{ marginBottom: 16 }}>
        {canAdd ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            Add property
          </Button>
        ) : null}
      </Space>
      <Table<TPropertyDefinition>
        rowKey="key"
        size="small"
        loading={definitions.isPending}
        dataSource={definitions.data ?? []}
        pagination={false}
        locale={{ emptyText: 'No additional properties defined yet.' }}
        columns={[
          { title: 'Label', dataIndex: 'label' },
          { title: 'Key', dataIndex: 'key', render: (key: string) => <code>{key}</code> },
          { title: 'Kind', key: 'kind', render: (_, d) => kindText(d) },
          { title: 'Required', dataIndex: 'required', render: (r: boolean) => (r ? 'Yes' : 'No') },
          { title: 'Help text', dataIndex: 'helpText' },
          {
            title: 'Status',
            key: 'status',
            render: (_, d) =>
              d.archived ? (
                <Typography.Text type="secondary">
                  <Tag>Archived</Tag>
                  {d.archiveReason}
                </Typography.Text>
              ) : (
                <Tag color="green">Active</Tag>
              ),
          },
          {
            title: 'Actions',
            key: 'actions',
            render: (_, d) => (
              <Space>
                {canEdit && !d.archived ? (
                  <Button size="small" onClick={() => setEditing(d)}>
                    Edit
                  </Button>
                ) : null}
                {canArchive ? (
                  <Button
                    size="small"
                    danger={!d.archived}
                    onClick={() =>
                      setPending({ action: d.archived ? 'restore' : 'archive', definition: d })
                    }
                  >
                    {d.archived ? 'Restore' : 'Archive'}
                  </Button>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      {editing !== null ? (
        <DefinitionFormModal
          target={target}
          definition={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ReasonDialog
        open={pending !== null}
        title={
          pending?.action === 'archive'
            ? `Archive property '${pending.definition.label}'?`
            : `Restore property '${pending?.definition.label ?? ''}'?`
        }
        okText={pending?.action === 'archive' ? 'Archive' : 'Restore'}
        danger={pending?.action === 'archive'}
        description={
          pending?.action === 'archive'
            ? 'Values already recorded stay readable; no new values can be entered.'
            : undefined
        }
        managedByCaller
        onSubmit={({ reason }) => archiveOrRestore(reason)}
        onClose={() => setPending(null)}
      />
    </>
  );
}
