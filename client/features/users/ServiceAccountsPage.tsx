import {
  Alert,
  Button,
  Dropdown,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import type { MenuProps, TableColumnsType } from 'antd';
import { useState } from 'react';
import {
  MAX_TOKEN_DAYS,
  type TApiToken,
  type TServiceAccount,
} from '#core/schemas/service-accounts.schemas.ts';
import type { Facility } from '#client/api/auth-types.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { useNumberFormat } from '#client/shared/use-number-format.ts';
import { AdminListHeader, useAdminList } from '#client/shared/users/AdminList.tsx';
import { ReasonDialog, type ReasonValues } from '#client/shared/reason/ReasonDialog.tsx';
import { useUsers } from '#client/shared/users/users-api.ts';
import {
  useAccountTokens,
  useArchiveServiceAccount,
  useCreateServiceAccount,
  useIssueToken,
  useRevokeToken,
  useServiceAccounts,
  useUpdateServiceAccount,
} from '#client/shared/users/service-accounts-api.ts';
import { FacilityRolesField, grantsOfForm, withUnshownGrants } from './UserFormModal.tsx';

/*
 * Service accounts (issue 33): other systems that call the application, each owned by a person.
 * Their API tokens are shown once when issued, expire, and can be revoked; a service account
 * never signs.
 */

type Dialog =
  | { kind: 'form'; account: TServiceAccount | null }
  | { kind: 'tokens'; account: TServiceAccount }
  | { kind: 'archive'; account: TServiceAccount };

interface AccountForm {
  name: string;
  description?: string;
  ownerId: number;
  roles: Record<string, number[] | undefined>;
  reason?: string;
}

function AccountFormModal({
  account,
  facilities,
  onClose,
}: {
  account: TServiceAccount | null;
  facilities: Facility[];
  onClose: () => void;
}) {
  const [form] = Form.useForm<AccountForm>();
  const create = useCreateServiceAccount();
  const update = useUpdateServiceAccount();
  const people = useUsers({ pageNumber: 1, pageLimit: 1000, search: '', archived: false });
  const initial: Partial<AccountForm> = account
    ? {
        name: account.name,
        description: account.description ?? '',
        ownerId: account.owner.id,
        roles: Object.fromEntries(
          account.facilityRoles.map((f) => [String(f.facilityId), f.roleIds]),
        ),
      }
    : { roles: {} };

  async function save(values: AccountForm): Promise<void> {
    const body = {
      name: values.name,
      description: values.description?.trim() ? values.description.trim() : null,
      ownerId: values.ownerId,
      facilityRoles: grantsOfForm(values.roles),
    };
    if (account) {
      await update.mutateAsync({
        id: account.id,
        ...body,
        facilityRoles: withUnshownGrants(body.facilityRoles, account.facilityRoles, facilities),
        reason: values.reason ?? '',
        version: account.version,
      });
    } else {
      await create.mutateAsync(body);
    }
  }

  return (
    <ReasonDialog
      form={form}
      askReason={account !== null}
      width={640}
      title={account ? 'Edit Service Account' : 'Add Service Account'}
      okText={account ? 'Save' : 'Create Service Account'}
      initialValues={initial}
      onSubmit={save}
      onClose={onClose}
    >
      <Form.Item
        label="Name"
        name="name"
        rules={[{ required: true, whitespace: true, message: 'Please enter a name' }]}
        extra="The system that calls the application, e.g. the laboratory system."
      >
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item label="Description" name="description">
        <Input.TextArea rows={2} />
      </Form.Item>
      <Form.Item
        label="Owner"
        name="ownerId"
        rules={[{ required: true, message: 'Choose the person who owns the account' }]}
        extra="The person who answers for the account. Its actions are recorded under the account and its owner."
      >
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          loading={people.isPending}
          options={(people.data?.data ?? []).map((u) => ({
            label: `${u.firstName} ${u.lastName}`,
            value: u.id,
          }))}
        />
      </Form.Item>
      {facilities.map((facility) => (
        <FacilityRolesField key={facility.id} facility={facility} />
      ))}
    </ReasonDialog>
  );
}

const STATE_TAGS: Record<TApiToken['state'], { color: string; label: string }> = {
  active: { color: 'green', label: 'Active' },
  expired: { color: 'default', label: 'Expired' },
  revoked: { color: 'red', label: 'Revoked' },
};

interface IssueForm {
  name: string;
  expiresInDays: number;
}

/** The account's tokens: issue one (shown once), revoke one with a reason, see last use. */
function TokensModal({ account, onClose }: { account: TServiceAccount; onClose: () => void }) {
  const tokens = useAccountTokens(account.id);
  const issue = useIssueToken();
  const revoke = useRevokeToken();
  const dates = useDateFormat();
  const permissions = usePermissions();
  const mayIssue = permissions.canInPlan('User', 'Add') && account.archivedAt === null;
  const mayRevoke = permissions.canInPlan('User', 'Modify');
  const [issuing, setIssuing] = useState(false);
  const [shown, setShown] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<TApiToken | null>(null);

  const columns: TableColumnsType<TApiToken> = [
    { title: 'Name', dataIndex: 'name' },
    {
      title: 'Status',
      key: 'state',
      render: (_, t) => <Tag color={STATE_TAGS[t.state].color}>{STATE_TAGS[t.state].label}</Tag>,
    },
    { title: 'Expires', key: 'expires', render: (_, t) => dates.formatDateTime(t.expiresAt) },
    {
      title: 'Last used',
      key: 'lastUsed',
      render: (_, t) => (t.lastUsedAt ? dates.formatDateTime(t.lastUsedAt) : 'Never'),
    },
    {
      title: 'Issued',
      key: 'issued',
      render: (_, t) =>
        `${dates.formatDateTime(t.createdAt)}${t.createdBy ? ` by ${t.createdBy}` : ''}`,
    },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, t) =>
        mayRevoke && t.state === 'active' ? (
          <Button danger size="small" onClick={() => setRevoking(t)}>
            Revoke
          </Button>
        ) : t.revokedAt ? (
          `Revoked ${dates.formatDateTime(t.revokedAt)}${t.revokedBy ? ` by ${t.revokedBy}` : ''}`
        ) : null,
    },
  ];

  return (
    <Modal
      open
      width={900}
      title={`API tokens of ${account.name}`}
      onCancel={onClose}
      footer={<Button onClick={onClose}>Close</Button>}
    >
      <Typography.Paragraph>
        Another system sends a token in the Authorization header of each call. It acts with the
        account&apos;s roles and cannot sign.
      </Typography.Paragraph>
      {mayIssue && (
        <Button type="primary" onClick={() => setIssuing(true)} style={{ marginBottom: 16 }}>
          Issue Token
        </Button>
      )}
      {shown && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title="This token is shown only once"
          description={
            <>
              <Typography.Paragraph>
                Copy it now into the other system. It cannot be shown again: if it is lost, revoke
                it and issue a new one.
              </Typography.Paragraph>
              <Typography.Paragraph copyable={{ text: shown }} code data-testid="api-token">
                {shown}
              </Typography.Paragraph>
            </>
          }
        />
      )}
      <Table<TApiToken>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={tokens.data ?? []}
        loading={tokens.isFetching}
        pagination={false}
      />
      {issuing && (
        <ReasonDialog<IssueForm>
          askReason={false}
          title="Issue API Token"
          okText="Issue Token"
          initialValues={{ expiresInDays: 90 }}
          onSubmit={async (values) => {
            const issued = await issue.mutateAsync({ accountId: account.id, ...values });
            setShown(issued.token);
          }}
          onClose={() => setIssuing(false)}
        >
          <Form.Item
            label="Token name"
            name="name"
            rules={[{ required: true, whitespace: true, message: 'Please enter a name' }]}
            extra="What the token is for, e.g. the nightly result import."
          >
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item
            label="Valid for (days)"
            name="expiresInDays"
            rules={[{ required: true, message: 'Choose how many days the token is valid' }]}
            extra={`At most ${MAX_TOKEN_DAYS} days.`}
          >
            <InputNumber min={1} max={MAX_TOKEN_DAYS} precision={0} />
          </Form.Item>
        </ReasonDialog>
      )}
      {revoking && (
        <ReasonDialog
          title={`Revoke the token ${revoking.name}`}
          okText="Revoke"
          danger
          description="The other system can no longer call with it, from its next call."
          onSubmit={({ reason }: ReasonValues) =>
            revoke.mutateAsync({ accountId: account.id, tokenId: revoking.id, reason })
          }
          onClose={() => setRevoking(null)}
        />
      )}
    </Modal>
  );
}

/** The plan's service accounts, in the users' administration area. */
export function ServiceAccountsPage({ facilities }: { facilities: Facility[] }) {
  const list = useAdminList();
  const archived = list.tab === 'archived';
  const accounts = useServiceAccounts(archived);
  const archive = useArchiveServiceAccount();
  const permissions = usePermissions();
  const dates = useDateFormat();
  const numbers = useNumberFormat();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const mayAdd = permissions.canInPlan('User', 'Add');
  const mayModify = permissions.canInPlan('User', 'Modify');
  const mayArchive = permissions.canInPlan('User', 'Archive');

  function menuFor(account: TServiceAccount): MenuProps['items'] {
    const items: NonNullable<MenuProps['items']> = [
      { key: 'tokens', label: 'API Tokens', onClick: () => setDialog({ kind: 'tokens', account }) },
    ];
    if (account.archivedAt) return items;
    if (mayModify) {
      items.push({
        key: 'edit',
        label: 'Edit',
        onClick: () => setDialog({ kind: 'form', account }),
      });
    }
    if (mayArchive) {
      items.push({
        key: 'archive',
        label: 'Archive',
        danger: true,
        onClick: () => setDialog({ kind: 'archive', account }),
      });
    }
    return items;
  }

  const columns: TableColumnsType<TServiceAccount> = [
    { title: 'Name', dataIndex: 'name' },
    { title: 'Owner', key: 'owner', render: (_, a) => a.owner.name },
    {
      title: 'Roles',
      key: 'roles',
      render: (_, a) => [...new Set(a.roles.map((r) => r.name))].join(', ') || '—',
    },
    {
      title: 'Active tokens',
      key: 'activeTokens',
      render: (_, a) => numbers.number(a.activeTokens),
    },
    {
      title: 'Last used',
      key: 'lastUsed',
      render: (_, a) => (a.lastUsedAt ? dates.formatDateTime(a.lastUsedAt) : 'Never'),
    },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, a) => (
        <Dropdown menu={{ items: menuFor(a) }} trigger={['click']}>
          <Button aria-label={`Actions for ${a.name}`}>Actions</Button>
        </Dropdown>
      ),
    },
  ];

  return (
    <section aria-label="Service accounts">
      <AdminListHeader
        title="Service Accounts"
        addText="Add Service Account"
        mayAdd={mayAdd}
        onAdd={() => setDialog({ kind: 'form', account: null })}
      />
      <Typography.Paragraph type="secondary">
        Other systems call the application as a service account, with an API token. Each account has
        an owner who answers for it; it acts only with its roles and never signs.
      </Typography.Paragraph>
      <Tabs
        activeKey={list.tab}
        onChange={list.setTab}
        items={[
          { key: 'active', label: 'Service Accounts' },
          { key: 'archived', label: 'Archived Service Accounts' },
        ]}
      />
      <Table<TServiceAccount>
        rowKey="id"
        columns={columns}
        dataSource={accounts.data ?? []}
        loading={accounts.isFetching}
        pagination={false}
      />
      {dialog?.kind === 'form' && (
        <AccountFormModal
          account={dialog.account}
          facilities={facilities}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'tokens' && (
        <TokensModal account={dialog.account} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'archive' && (
        <ReasonDialog
          title={`Archive ${dialog.account.name}`}
          okText="Archive"
          danger
          description="Its tokens are revoked; the account and its tokens stay listed."
          onSubmit={({ reason }: ReasonValues) =>
            archive.mutateAsync({ id: dialog.account.id, reason })
          }
          onClose={() => setDialog(null)}
        />
      )}
    </section>
  );
}
