import { Button, Form, Input, Table } from 'antd';
import { useState } from 'react';
import type { TFacilityGroupRecord } from '#core/schemas/facilities.schemas.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { useSession } from '#client/session/use-session.ts';
import { AdminListHeader, AdminSearch, useAdminList } from '#client/shared/users/AdminList.tsx';
import { useFacilityGroups, useSaveFacilityGroup } from './facilities-api.ts';

function GroupFormModal({
  group,
  onClose,
}: {
  group: TFacilityGroupRecord | null;
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ name: string; reason?: string }>();
  const save = useSaveFacilityGroup();
  return (
    <ReasonDialog
      form={form}
      askReason={group !== null}
      title={group ? 'Rename Facility Group' : 'Add Facility Group'}
      okText={group ? 'Save' : 'Create Facility Group'}
      initialValues={{ name: group?.name ?? '' }}
      onSubmit={(values) =>
        save.mutateAsync(group ? { ...values, id: group.id, version: group.version } : values)
      }
      onClose={onClose}
    >
      <Form.Item label="Name" name="name" rules={[{ required: true, whitespace: true }]}>
        <Input />
      </Form.Item>
    </ReasonDialog>
  );
}

/** Facility groups gather facilities in the chooser; only a system administrator writes them. */
export function FacilityGroupsPage() {
  const list = useAdminList();
  const groups = useFacilityGroups(list.search, list.page.pageNumber, list.page.pageLimit);
  const isSystemAdmin = useSession().user?.isSystemAdmin === true;
  const [editing, setEditing] = useState<TFacilityGroupRecord | null | undefined>(undefined);
  return (
    <section aria-label="Facility groups">
      <AdminListHeader
        title="Facility groups"
        addText="Add Facility Group"
        mayAdd={isSystemAdmin}
        onAdd={() => setEditing(null)}
      />
      <AdminSearch label="Search facility groups" onSearch={list.setSearch} />
      <Table<TFacilityGroupRecord>
        rowKey="id"
        dataSource={groups.data?.data ?? []}
        loading={groups.isFetching}
        columns={[
          { title: 'Facility group', dataIndex: 'name' },
          {
            title: 'Actions',
            key: 'actions',
            render: (_, g) =>
              isSystemAdmin ? <Button onClick={() => setEditing(g)}>Rename</Button> : null,
          },
        ]}
        pagination={list.pagination(groups.data?.total)}
      />
      {editing !== undefined && (
        <GroupFormModal group={editing} onClose={() => setEditing(undefined)} />
      )}
    </section>
  );
}
