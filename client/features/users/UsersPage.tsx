import { Button, Checkbox, Dropdown, Form, message, Radio, Space, Table, Tabs, Tag } from 'antd';
import type { MenuProps, TableColumnsType } from 'antd';
import { useState } from 'react';
import type { TUser, TUserWithKey } from '#core/schemas/users.schemas.ts';
import type { Facility } from '#client/api/auth-types.ts';
import { useCurrentUser } from '#client/shared/session-queries.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { AdminListHeader, AdminSearch, useAdminList } from '#client/shared/users/AdminList.tsx';
import { ReasonDialog, type ReasonValues } from '#client/shared/reason/ReasonDialog.tsx';
import { SecretKeyModal } from './SecretKeyModal.tsx';
import { showSaveError } from '#client/api/form-errors.ts';
import { UserFormModal } from './UserFormModal.tsx';
import { DirectoryAddModal } from './DirectoryAddModal.tsx';
import { UserHistoryDrawer } from './UserHistoryDrawer.tsx';
import { useActiveDirectorySettings } from '#client/shared/settings/active-directory-api.ts';
import {
  useAccountAction,
  useArchiveUser,
  useCancelSecretKey,
  useEndSessions,
  useResendInvitation,
  useUpdateUser,
  useUsers,
  type AccountAction,
} from '#client/shared/users/users-api.ts';

type Dialog =
  | { kind: 'form'; user: TUser | null }
  | { kind: 'directory' }
  | { kind: 'key'; username: string; secretKey: string }
  | { kind: 'history'; user: TUser }
  | {
      kind: 'reason';
      title: string;
      okText: string;
      danger?: boolean;
      extra?: 'force' | 'generateKey';
      run: (values: ReasonValues) => Promise<unknown>;
    };

function statusTags(user: TUser) {
  const tags = [];
  if (user.archivedAt) tags.push(<Tag key="archived">Archived</Tag>);
  if (user.isBlocked)
    tags.push(
      <Tag key="blocked" color="red">
        Blocked
      </Tag>,
    );
  if (user.isLocked)
    tags.push(
      <Tag key="locked" color="orange">
        Locked
      </Tag>,
    );
  if (!user.isRegistered)
    tags.push(
      <Tag key="invited" color="blue">
        {user.hasSecretKey ? 'Key issued' : 'Invited'}
      </Tag>,
    );
  if (tags.length === 0)
    tags.push(
      <Tag key="active" color="green">
        Active
      </Tag>,
    );
  return tags;
}

/** Users of the plan: search, paging, and every administrative action, each with its reason. */
export function UsersPage({ facilities }: { facilities: Facility[] }) {
  const list = useAdminList();
  const { tab } = list;
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const permissions = usePermissions();
  const users = useUsers({ ...list.page, search: list.search, archived: tab === 'archived' });
  const update = useUpdateUser();
  const archive = useArchiveUser();
  const account = useAccountAction();
  const resend = useResendInvitation();
  const cancelKey = useCancelSecretKey();
  const endSessions = useEndSessions();
  const mayAdd = permissions.canInPlan('User', 'Add');
  const directory = useActiveDirectorySettings();
  const mayModify = permissions.canInPlan('User', 'Modify');
  const mayArchive = permissions.canInPlan('User', 'Archive');
  // The server refuses the rest (issue 8); these only hide what is sure to be refused.
  const isSystemAdmin = useCurrentUser().data?.isSystemAdmin === true;
  const mayKey = (user: TUser) => isSystemAdmin || !user.isRegistered;

  function ask(dialogProps: Omit<Extract<Dialog, { kind: 'reason' }>, 'kind'>): void {
    setDialog({ kind: 'reason', ...dialogProps });
  }

  function accountAction(user: TUser, action: AccountAction, label: string): void {
    ask({
      title: `${label} ${user.firstName} ${user.lastName}`,
      okText: label,
      danger: action === 'lock' || action === 'block',
      run: async ({ reason }) => {
        await account.mutateAsync({ id: user.id, action, reason });
        void message.success(`${label}: done`);
      },
    });
  }

  function showKey(result: TUserWithKey): void {
    if (result.secretKey) {
      setDialog({ kind: 'key', username: result.user.username, secretKey: result.secretKey });
    } else if (result.invitationSent) {
      void message.success(`Invitation sent to ${result.user.email}`);
    }
  }

  /** Whoever may list users may read what happened to each account; the actions follow it. */
  function menuFor(user: TUser): MenuProps['items'] {
    const history = {
      key: 'history',
      label: 'History',
      onClick: () => setDialog({ kind: 'history', user }),
    };
    return [...(actionsFor(user) ?? []), history];
  }

  function actionsFor(user: TUser): MenuProps['items'] {
    if (user.isSystemAdmin && !isSystemAdmin) return [];
    if (user.archivedAt) {
      return mayArchive
        ? [
            {
              key: 'unarchive',
              label: 'Unarchive',
              onClick: () =>
                ask({
                  title: `Unarchive ${user.firstName} ${user.lastName}`,
                  okText: 'Unarchive',
                  run: ({ reason }) =>
                    update.mutateAsync({
                      id: user.id,
                      unArchive: true,
                      reason,
                      version: user.version,
                    }),
                }),
            },
          ]
        : [];
    }
    const items: NonNullable<MenuProps['items']> = [];
    if (mayModify) {
      items.push({ key: 'edit', label: 'Edit', onClick: () => setDialog({ kind: 'form', user }) });
      items.push(
        user.isLocked
          ? {
              key: 'unlock',
              label: 'Unlock',
              onClick: () => accountAction(user, 'unlock', 'Unlock'),
            }
          : { key: 'lock', label: 'Lock', onClick: () => accountAction(user, 'lock', 'Lock') },
        user.isBlocked
          ? {
              key: 'unblock',
              label: 'Unblock',
              onClick: () => accountAction(user, 'unblock', 'Unblock'),
            }
          : { key: 'block', label: 'Block', onClick: () => accountAction(user, 'block', 'Block') },
      );
      if (user.isBlocked || user.isLocked) {
        items.push({
          key: 'enable',
          label: 'Enable',
          onClick: () => accountAction(user, 'enable', 'Enable'),
        });
      }
      if (user.email || mayKey(user)) {
        items.push({
          key: 'resend',
          label: 'Resend Invitation',
          onClick: () =>
            ask({
              title: `Resend invitation to ${user.firstName} ${user.lastName}`,
              okText: 'Resend',
              ...(user.email && mayKey(user) ? { extra: 'generateKey' as const } : {}),
              run: async ({ reason, generateKey }) =>
                showKey(
                  await resend.mutateAsync({
                    id: user.id,
                    reason,
                    generateKey: generateKey === true || !user.email,
                  }),
                ),
            }),
        });
      }
      if (user.hasSecretKey) {
        items.push({
          key: 'cancel-key',
          label: 'Cancel Secret Key',
          onClick: () =>
            ask({
              title: `Cancel the secret key of ${user.firstName} ${user.lastName}`,
              okText: 'Cancel Key',
              danger: true,
              run: ({ reason }) => cancelKey.mutateAsync({ id: user.id, reason }),
            }),
        });
      }
      items.push({
        key: 'sessions',
        label: 'End Sessions',
        onClick: () =>
          void endSessions.mutateAsync({ id: user.id }).then(
            () => void message.success('Sessions ended'),
            (error: unknown) => showSaveError(error),
          ),
      });
    }
    if (mayArchive) {
      items.push({
        key: 'archive',
        label: 'Archive',
        danger: true,
        onClick: () =>
          ask({
            title: `Archive ${user.firstName} ${user.lastName}`,
            okText: 'Archive',
            danger: true,
            extra: 'force',
            run: ({ reason, force_delete }) =>
              archive.mutateAsync({ id: user.id, reason, forceDelete: force_delete === true }),
          }),
      });
    }
    return items;
  }

  const columns: TableColumnsType<TUser> = [
    { title: 'Name', key: 'name', render: (_, u) => `${u.firstName} ${u.lastName}` },
    { title: 'Employee ID', dataIndex: 'username' },
    { title: 'Email', dataIndex: 'email', render: (email: string | null) => email ?? '—' },
    { title: 'Department', key: 'department', render: (_, u) => u.department?.name ?? '—' },
    {
      title: 'Roles',
      key: 'roles',
      render: (_, u) => [...new Set(u.roles.map((r) => r.name))].join(', ') || '—',
    },
    {
      title: 'Status',
      key: 'status',
      render: (_, u) => (
        <Space size={4} wrap>
          {statusTags(u)}
        </Space>
      ),
    },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, u) => {
        const items = menuFor(u);
        return items && items.length > 0 ? (
          <Dropdown menu={{ items }} trigger={['click']}>
            <Button aria-label={`Actions for ${u.username}`}>Actions</Button>
          </Dropdown>
        ) : null;
      },
    },
  ];

  return (
    <section aria-label="Users">
      <AdminListHeader
        title="Users"
        addText="Add User"
        mayAdd={mayAdd}
        onAdd={() => setDialog({ kind: 'form', user: null })}
        extra={
          directory.data?.enabled && (
            <Button onClick={() => setDialog({ kind: 'directory' })}>Add from directory</Button>
          )
        }
        wrap
      />
      <Tabs
        activeKey={tab}
        onChange={list.setTab}
        items={[
          { key: 'active', label: 'Users' },
          { key: 'archived', label: 'Archived Users' },
        ]}
      />
      <AdminSearch
        label="Search users"
        placeholder="Search by name, Employee ID, e-mail or department"
        maxWidth={420}
        onSearch={list.setSearch}
      />
      <Table<TUser>
        rowKey="id"
        columns={columns}
        dataSource={users.data?.data ?? []}
        loading={users.isFetching}
        pagination={list.pagination(users.data?.total, true)}
      />
      {dialog?.kind === 'form' && (
        <UserFormModal
          user={dialog.user}
          facilities={facilities}
          onCreated={showKey}
          onClose={() => setDialog((current) => (current?.kind === 'form' ? null : current))}
        />
      )}
      {dialog?.kind === 'directory' && <DirectoryAddModal onClose={() => setDialog(null)} />}
      {dialog?.kind === 'history' && (
        <UserHistoryDrawer user={dialog.user} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'key' && (
        <SecretKeyModal
          username={dialog.username}
          secretKey={dialog.secretKey}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'reason' && (
        <ReasonDialog
          title={dialog.title}
          okText={dialog.okText}
          danger={dialog.danger ?? false}
          onSubmit={dialog.run}
          onClose={() => setDialog((current) => (current?.kind === 'reason' ? null : current))}
        >
          {dialog.extra === 'force' ? (
            <Form.Item name="force_delete" valuePropName="checked" initialValue={false}>
              <Checkbox>Also remove their facilities and roles</Checkbox>
            </Form.Item>
          ) : dialog.extra === 'generateKey' ? (
            <Form.Item name="generateKey" label="Send" initialValue={false}>
              <Radio.Group
                options={[
                  { label: 'Invitation e-mail', value: false },
                  { label: 'New secret key', value: true },
                ]}
              />
            </Form.Item>
          ) : null}
        </ReasonDialog>
      )}
    </section>
  );
}
