import { Button, Form, Input, Table } from 'antd';
import { useState } from 'react';
import type { TDepartment } from '#core/schemas/departments.schemas.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { AdminListHeader, AdminSearch, useAdminList } from '#client/shared/users/AdminList.tsx';
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

  async function save(values: { name: string; reason?: string }): Promise<void> {
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
  }

  return (
    <ReasonDialog
      form={form}
      askReason={department !== null}
      title={department ? 'Rename Department' : 'Add Department'}
      okText={department ? 'Save' : 'Create Department'}
      initialValues={{ name: department?.name ?? '' }}
      onSubmit={save}
      onClose={onClose}
    >
      <Form.Item
        label="Department Name"
        name="name"
        rules={[{ required: true, whitespace: true, message: 'Please enter the department name' }]}
      >
        <Input />
      </Form.Item>
    </ReasonDialog>
  );
}

/** Departments of the plan: users and operators belong to them. */
export function DepartmentsPage() {
  const list = useAdminList();
  const departments = useDepartments(list.search, list.page.pageNumber, list.page.pageLimit);
  const permissions = usePermissions();
  const [editing, setEditing] = useState<TDepartment | null | undefined>(undefined);
  const mayModify = permissions.canInPlan('Department', 'Modify');

  return (
    <section aria-label="Departments">
      <AdminListHeader
        title="Departments"
        addText="Add Department"
        mayAdd={permissions.canInPlan('Department', 'Add')}
        onAdd={() => setEditing(null)}
      />
      <AdminSearch label="Search departments" onSearch={list.setSearch} />
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
        pagination={list.pagination(departments.data?.total)}
      />
      {editing !== undefined && (
        <DepartmentFormModal department={editing} onClose={() => setEditing(undefined)} />
      )}
    </section>
  );
}
