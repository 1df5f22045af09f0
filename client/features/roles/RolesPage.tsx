import { Button, Form, Input, Select, Space, Table, Tabs } from 'antd';
import type { TableColumnsType } from 'antd';
import { useState } from 'react';
import { emptyPermissionMap, type PermissionMap } from '#core/permissions/permission-map.ts';
import { ROLE_TEMPLATES, roleTemplateNamed } from '#core/permissions/role-templates.ts';
import type { TRole } from '#core/schemas/roles.schemas.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { AdminListHeader } from '#client/shared/users/AdminList.tsx';
import { PermissionMapEditor } from './PermissionMapEditor.tsx';
import { usePermissions } from '#client/shared/permissions.ts';
import {
  useArchiveRole,
  useCreateRole,
  useRoles,
  useUpdateRole,
} from '#client/shared/roles/roles-api.ts';

interface RoleForm {
  name: string;
  permissions: PermissionMap;
  reason?: string;
}

function RoleFormModal({ role, onClose }: { role: TRole | null; onClose: () => void }) {
  const [form] = Form.useForm<RoleForm>();
  const create = useCreateRole();
  const update = useUpdateRole();

  async function save(values: RoleForm): Promise<void> {
    if (role) {
      await update.mutateAsync({
        id: role.id,
        name: values.name,
        permissions: values.permissions,
        reason: values.reason ?? '',
        version: role.version,
      });
    } else {
      await create.mutateAsync({ name: values.name, permissions: values.permissions });
    }
  }

  return (
    <ReasonDialog
      form={form}
      askReason={role !== null}
      width={1000}
      title={role ? `Edit Role ${role.name}` : 'Add Role'}
      okText={role ? 'Save' : 'Create Role'}
      initialValues={{
        name: role?.name ?? '',
        permissions: role?.permissions ?? emptyPermissionMap(),
      }}
      onSubmit={save}
      onClose={onClose}
    >
      <Form.Item
        label="Role Name"
        name="name"
        rules={[{ required: true, whitespace: true, message: 'Please enter the role name' }]}
      >
        <Input />
      </Form.Item>
      {/* A new role starts from a shipped template's rights, then is adjusted like any other. */}
      {role === null && (
        <Form.Item label="Start from template">
          <Select
            aria-label="Start from template"
            allowClear
            placeholder="No template: every permission off"
            options={ROLE_TEMPLATES.map((template) => ({
              value: template.name,
              label: `${template.job}: ${template.why}`,
            }))}
            onChange={(name: string | undefined) => {
              const template = name ? roleTemplateNamed(name) : undefined;
              form.setFieldsValue({
                permissions: template ? template.permissions() : emptyPermissionMap(),
                ...(template && !form.getFieldValue('name')
                  ? { name: `${template.name} (copy)` }
                  : {}),
              });
            }}
          />
        </Form.Item>
      )}
      <Form.Item label="Permissions" name="permissions">
        <PermissionMapEditor />
      </Form.Item>
    </ReasonDialog>
  );
}

/** The roles of the current facility and the permission map of each. */
export function RolesPage() {
  const [tab, setTab] = useState<'active' | 'archived'>('active');
  const roles = useRoles(tab === 'archived');
  const permissions = usePermissions();
  const update = useUpdateRole();
  const archive = useArchiveRole();
  const [editing, setEditing] = useState<TRole | null | undefined>(undefined);
  const [archiving, setArchiving] = useState<{ role: TRole; restore: boolean } | null>(null);
  const mayAdd = permissions.can('UserRole', 'Add');
  const mayModify = permissions.can('UserRole', 'Modify');
  const mayDelete = permissions.can('UserRole', 'Delete');

  const columns: TableColumnsType<TRole> = [
    { title: 'Role', dataIndex: 'name' },
    {
      title: 'Made for',
      key: 'job',
      render: (_, role) => roleTemplateNamed(role.name)?.job ?? '',
    },
    { title: 'Users', dataIndex: 'userCount' },
    {
      title: 'Permissions granted',
      key: 'granted',
      render: (_, role) =>
        Object.values(role.permissions).reduce(
          (n, actions) => n + Object.values(actions).filter(Boolean).length,
          0,
        ),
    },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, role) => (
        <Space>
          {tab === 'active' && mayModify && <Button onClick={() => setEditing(role)}>Edit</Button>}
          {tab === 'active' && mayDelete && (
            <Button danger onClick={() => setArchiving({ role, restore: false })}>
              Archive
            </Button>
          )}
          {tab === 'archived' && mayDelete && (
            <Button onClick={() => setArchiving({ role, restore: true })}>Unarchive</Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <section aria-label="Roles">
      <AdminListHeader
        title="Roles"
        addText="Add Role"
        mayAdd={mayAdd}
        onAdd={() => setEditing(null)}
      />
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as 'active' | 'archived')}
        items={[
          { key: 'active', label: 'Roles' },
          { key: 'archived', label: 'Archived Roles' },
        ]}
      />
      <Table<TRole>
        rowKey="id"
        columns={columns}
        dataSource={roles.data ?? []}
        loading={roles.isFetching}
        pagination={false}
      />
      {editing !== undefined && (
        <RoleFormModal role={editing} onClose={() => setEditing(undefined)} />
      )}
      {archiving && (
        <ReasonDialog
          title={`${archiving.restore ? 'Unarchive' : 'Archive'} role ${archiving.role.name}`}
          okText={archiving.restore ? 'Unarchive' : 'Archive'}
          danger={!archiving.restore}
          onSubmit={({ reason }) =>
            archiving.restore
              ? update.mutateAsync({ id: archiving.role.id, unArchive: true, reason })
              : archive.mutateAsync({ id: archiving.role.id, reason })
          }
          onClose={() => setArchiving(null)}
        />
      )}
    </section>
  );
}
