import { Button, Form, Input, Modal, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import type { TDepartment } from '../../../core/schemas/departments.schemas.ts';
import { can } from '../roles/admin-areas.ts';
import { useMyPermissions } from '../roles/permissions-api.ts';
import { showServerError } from '../users/server-errors.ts';
import { useCreateDepartment, useDepartments, useUpdateDepartment } from './departments-api.ts';

function DepartmentFormModal({
  department,
  onClose,
}: {
  department: TDepartment | null;
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ name: string; reason?: string }>();
  const create = useCreateDepartment();
  const update = useUpdateDepartment();
  const [isSaving, setSaving] = useState(false);

  async function submit(): Promise<void> {
    const values = await form.validateFields();
    setSaving(true);
    try {
      if (department) {
        await update.mutateAsync({
          id: department.id,
          name: values.name,
          reason: values.reason ?? '',
          version: department.version,
        });
      } else {
        await create.mutateAsync({ name: values.name });
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
      title={department ? 'Rename Department' : 'Add Department'}
      okText={department ? 'Save' : 'Create Department'}
      okButtonProps={{ loading: isSaving }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ name: department?.name ?? '' }}
      >
        <Form.Item
          label="Department Name"
          name="name"
          rules={[
            { required: true, whitespace: true, message: 'Please enter the department name' },
          ]}
        >
          <Input />
        </Form.Item>
        {department && (
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

/** Departments of the plan: users and operators belong to them. */
export function DepartmentsPage() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState({ pageNumber: 1, pageLimit: 10 });
  const departments = useDepartments(search, page.pageNumber, page.pageLimit);
  const permissions = useMyPermissions().data;
  const [editing, setEditing] = useState<TDepartment | null | undefined>(undefined);
  const mayModify = can(permissions, 'plan', 'Department', 'Modify');

  return (
    <section aria-label="Departments">
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Title level={2}>Departments</Typography.Title>
        {can(permissions, 'plan', 'Department', 'Add') && (
          <Button type="primary" onClick={() => setEditing(null)}>
            Add Department
          </Button>
        )}
      </Space>
      <Input.Search
        aria-label="Search departments"
        allowClear
        onSearch={(value) => {
          setSearch(value.trim());
          setPage((p) => ({ ...p, pageNumber: 1 }));
        }}
        style={{ maxWidth: 360, marginBottom: 16 }}
      />
      <Table<TDepartment>
        rowKey="id"
        dataSource={departments.data?.data ?? []}
        loading={departments.isFetching}
        columns={[
          { title: 'Department', dataIndex: 'name' },
          { title: 'Users', dataIndex: 'userCount' },
          {
            title: 'Actions',
            key: 'actions',
            render: (_, d) =>
              mayModify ? <Button onClick={() => setEditing(d)}>Rename</Button> : null,
          },
        ]}
        pagination={{
          current: page.pageNumber,
          pageSize: page.pageLimit,
          total: departments.data?.total ?? 0,
          onChange: (pageNumber, pageLimit) => setPage({ pageNumber, pageLimit }),
        }}
      />
      {editing !== undefined && (
        <DepartmentFormModal department={editing} onClose={() => setEditing(undefined)} />
      )}
    </section>
  );
}
