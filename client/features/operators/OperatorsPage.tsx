import { Button, Form, Input, Space, Table, Tabs } from 'antd';
import { useState } from 'react';
import type { TOperator } from '#core/schemas/operators.schemas.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { DepartmentField, PersonNameFields } from '#client/shared/users/person-fields.tsx';
import { AdminListHeader, AdminSearch, useAdminList } from '#client/shared/users/AdminList.tsx';
import {
  useArchiveOperator,
  useCreateOperator,
  useOperators,
  useUpdateOperator,
  type OperatorFormValues,
} from './operators-api.ts';

function OperatorFormModal({
  operator,
  onClose,
}: {
  operator: TOperator | null;
  onClose: () => void;
}) {
  const [form] = Form.useForm<OperatorFormValues & { reason?: string }>();
  const create = useCreateOperator();
  const update = useUpdateOperator();

  async function save({
    reason,
    ...values
  }: OperatorFormValues & { reason?: string }): Promise<void> {
    const body = { ...values, departmentId: values.departmentId ?? null };
    if (operator) {
      await update.mutateAsync({
        id: operator.id,
        ...body,
        reason: reason ?? '',
        version: operator.version,
      });
    } else {
      await create.mutateAsync(body);
    }
  }

  return (
    <ReasonDialog
      form={form}
      askReason={operator !== null}
      title={operator ? 'Edit Operator' : 'Add Operator'}
      okText={operator ? 'Save' : 'Create Operator'}
      initialValues={
        operator
          ? {
              firstName: operator.firstName,
              lastName: operator.lastName,
              operatorId: operator.operatorId,
              departmentId: operator.department?.id ?? null,
            }
          : {}
      }
      onSubmit={save}
      onClose={onClose}
    >
      <PersonNameFields />
      <Form.Item
        label="Operator ID"
        name="operatorId"
        rules={[{ required: true, whitespace: true, message: 'Please enter the Operator ID' }]}
      >
        <Input />
      </Form.Item>
      <DepartmentField />
    </ReasonDialog>
  );
}

/** Operators of the current facility: people who clean equipment and never sign in. */
export function OperatorsPage() {
  const list = useAdminList();
  const { tab } = list;
  const operators = useOperators({
    search: list.search,
    ...list.page,
    archived: tab === 'archived',
  });
  const permissions = usePermissions();
  const archive = useArchiveOperator();
  const [editing, setEditing] = useState<TOperator | null | undefined>(undefined);
  const [archiving, setArchiving] = useState<TOperator | null>(null);
  const mayModify = permissions.can('User', 'Modify');
  const mayArchive = permissions.can('User', 'Archive');

  return (
    <section aria-label="Operators">
      <AdminListHeader
        title="Operators"
        addText="Add Operator"
        mayAdd={permissions.can('User', 'Add')}
        onAdd={() => setEditing(null)}
      />
      <Tabs
        activeKey={tab}
        onChange={list.setTab}
        items={[
          { key: 'active', label: 'Operators' },
          { key: 'archived', label: 'Archived Operators' },
        ]}
      />
      <AdminSearch label="Search operators" onSearch={list.setSearch} />
      <Table<TOperator>
        rowKey="id"
        dataSource={operators.data?.data ?? []}
        loading={operators.isFetching}
        columns={[
          { title: 'Name', key: 'name', render: (_, o) => `${o.firstName} ${o.lastName}` },
          { title: 'Operator ID', dataIndex: 'operatorId' },
          { title: 'Department', key: 'department', render: (_, o) => o.department?.name ?? '—' },
          {
            title: 'Actions',
            key: 'actions',
            render: (_, o) => (
              <Space>
                {tab === 'active' && mayModify && (
                  <Button onClick={() => setEditing(o)}>Edit</Button>
                )}
                {mayArchive && (
                  <Button danger={tab === 'active'} onClick={() => setArchiving(o)}>
                    {tab === 'active' ? 'Archive' : 'Unarchive'}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
        pagination={list.pagination(operators.data?.total)}
      />
      {editing !== undefined && (
        <OperatorFormModal operator={editing} onClose={() => setEditing(undefined)} />
      )}
      {archiving && (
        <ReasonDialog
          title={`${tab === 'active' ? 'Archive' : 'Unarchive'} ${archiving.firstName} ${archiving.lastName}`}
          okText={tab === 'active' ? 'Archive' : 'Unarchive'}
          danger={tab === 'active'}
          onSubmit={({ reason }) =>
            archive.mutateAsync({ id: archiving.id, archive: tab === 'active', reason })
          }
          onClose={() => setArchiving(null)}
        />
      )}
    </section>
  );
}
