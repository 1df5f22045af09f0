import { Button, Input, Modal, Table, Tag, message } from 'antd';
import type { TActiveDirectoryUser } from '#core/schemas/active-directory.schemas.ts';
import { useAddDirectoryUser, useSearchDirectory } from '#client/shared/users/users-api.ts';

/**
 * "Add from directory": find accounts in Active Directory and add one as a user of auth type
 * AD; the server reads the account again and gives the roles of its groups by the mapping.
 */
export function DirectoryAddModal({ onClose }: { onClose: () => void }) {
  const search = useSearchDirectory();
  const add = useAddDirectoryUser();

  async function addUser(account: TActiveDirectoryUser): Promise<void> {
    const { user } = await add.mutateAsync(account.dn);
    const roles = user.facilityRoles.reduce((n, f) => n + f.roleIds.length, 0);
    void message.success(`${user.firstName} ${user.lastName} added with ${roles} role(s)`);
    search.mutate(search.variables ?? '');
  }

  return (
    <Modal open title="Add from directory" footer={null} onCancel={onClose} width={860}>
      <Input.Search
        aria-label="Search the directory"
        placeholder="Part of a name, Employee ID or e-mail"
        enterButton="Search"
        loading={search.isPending}
        onSearch={(query) => query.trim() && search.mutate(query.trim())}
      />
      <Table<TActiveDirectoryUser>
        rowKey="dn"
        style={{ marginTop: 16 }}
        pagination={false}
        dataSource={search.data?.activeDirectoryUsers ?? []}
        columns={[
          { title: 'Employee ID', dataIndex: 'username' },
          {
            title: 'Name',
            key: 'name',
            render: (_, u) => [u.firstName, u.lastName].filter(Boolean).join(' '),
          },
          { title: 'Email', dataIndex: 'email' },
          {
            title: 'Groups',
            key: 'groups',
            render: (_, u) =>
              u.groups.map((g) => <Tag key={g}>{/^cn=([^,]+)/i.exec(g)?.[1] ?? g}</Tag>),
          },
          {
            title: '',
            key: 'add',
            render: (_, u) =>
              u.existingUserId === null ? (
                <Button
                  type="primary"
                  loading={add.isPending && add.variables === u.dn}
                  disabled={!u.username}
                  onClick={() => void addUser(u)}
                >
                  Add
                </Button>
              ) : (
                <Tag color="green">Already a user</Tag>
              ),
          },
        ]}
      />
    </Modal>
  );
}
