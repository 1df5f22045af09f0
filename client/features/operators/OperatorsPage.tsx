import { Button, Form, Input, Modal, Select, Space, Table, Tabs, Typography } from 'antd';
import { useState } from 'react';
import type { TOperator } from '../../../core/schemas/operators.schemas.ts';
import { can } from '../roles/admin-areas.ts';
import { useMyPermissions } from '../roles/permissions-api.ts';
import { ReasonModal } from '../users/ReasonModal.tsx';
import { showServerError } from '../users/server-errors.ts';
import { useDepartmentOptions } from '../users/users-api.ts';
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
  const departments = useDepartmentOptions();
  const create = useCreateOperator();
  const update = useUpdateOperator();
  const [isSaving, setSaving] = useState(false);

  async function submit(): Promise<void> {
    const { reason, ...values } = await form.validateFields();
    setSaving(true);
    try {
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
      onClose();
    } catch (error) {
      showServerError(error, form);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      open
      title={operator ? 'Edit Operator' : 'Add Operator'}
      okText={operator ? 'Save' : 'Create Operator'}
      okButtonProps={{ loading: isSaving }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
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
      >
        <Form.Item
          label="First Name"
          name="firstName"
          rules={[{ required: true, whitespace: true, message: 'Please enter the first name' }]}
        >
          <Input />
        </Form.Item>
        <Form.Item
          label="Last Name"
          name="lastName"
          rules={[{ required: true, whitespace: true, message: 'Please enter the last name' }]}
        >
          <Input />
        </Form.Item>
        <Form.Item
          label="Operator ID"
          name="operatorId"
          rules={[{ required: true, whitespace: true, message: 'Please enter the Operator ID' }]}
        >
          <Input />
        </Form.Item>
        <Form.Item label="Department" name="departmentId">
          <Select
            allowClear
            loading={departments.isPending}
            options={(departments.data ?? []).map((d) => ({ label: d.name, value: d.id }))}
          />
        </Form.Item>
        {operator && (
          <Form.Item
            label="Reason"
            name="reason"
            rules={[{ required: true, whitespace: true, message: 'A reason is required' }]}
          >
            <Input.TextArea rows={2} maxLength={1000} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

/** Operators of the current facility: people who clean equipment and never sign in. */
export function OperatorsPage() {
  const [tab, setTab] = useState<'active' | 'archived'>('active');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState({ pageNumber: 1, pageLimit: 10 });
  const operators = useOperators({ search, ...page, archived: tab === 'archived' });
  const permissions = useMyPermissions().data;
  const archive = useArchiveOperator();
  const [editing, setEditing] = useState<TOperator | null | undefined>(undefined);
  const [archiving, setArchiving] = useState<TOperator | null>(null);
  const mayModify = can(permissions, 'facility', 'User', 'Modify');
  const mayArchive = can(permissions, 'facility', 'User', 'Archive');

  return (
    <section aria-label="Operators">
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Title level={2}>Operators</Typography.Title>
        {can(permissions, 'facility', 'User', 'Add') && (
          <Button type="primary" onClick={() => setEditing(null)}>
            Add Operator
          </Button>
        )}
      </Space>
      <Tabs
        activeKey={tab}
        onChange={(key) => {
          setTab(key as 'active' | 'archived');
          setPage((p) => ({ ...p, pageNumber: 1 }));
        }}
        items={[
          { key: 'active', label: 'Operators' },
          { key: 'archived', label: 'Archived Operators' },
        ]}
      />
      <Input.Search
        aria-label="Search operators"
        allowClear
        onSearch={(value) => {
          setSearch(value.trim());
          setPage((p) => ({ ...p, pageNumber: 1 }));
        }}
        style={{ maxWidth: 360, marginBottom: 16 }}
      />
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
        pagination={{
          current: page.pageNumber,
          pageSize: page.pageLimit,
          total: operators.data?.total ?? 0,
          onChange: (pageNumber, pageLimit) => setPage({ pageNumber, pageLimit }),
        }}
      />
      {editing !== undefined && (
        <OperatorFormModal operator={editing} onClose={() => setEditing(undefined)} />
      )}
      {archiving && (
        <ReasonModal
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
