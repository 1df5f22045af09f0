import { Alert, Button, Form, Input, Select, Space, Spin, Switch, Typography, message } from 'antd';
import type {
  TGroupRole,
  TUpdateActiveDirectorySettingsRequest,
} from '#core/schemas/active-directory.schemas.ts';
import { showSaveError } from '#client/api/form-errors.ts';
import { ReasonField } from '#client/shared/reason/ReasonDialog.tsx';
import { useFacilities } from '#client/shared/session-queries.ts';
import { useSession } from '#client/session/use-session.ts';
import { useFacilityRoleOptions } from '#client/shared/users/users-api.ts';
import {
  useActiveDirectorySettings,
  usePingActiveDirectory,
  useUpdateActiveDirectorySettings,
} from '#client/shared/settings/active-directory-api.ts';
import { showSaved } from './save-feedback.ts';

type AdForm = Omit<TUpdateActiveDirectorySettingsRequest, 'version' | 'groupRoles'> & {
  groupRoles: Partial<TGroupRole>[];
};

function RoleSelect({
  facilityId,
  value,
  onChange,
}: {
  facilityId: number | undefined;
  value?: number;
  onChange?: (value: number) => void;
}) {
  const { planId } = useSession();
  const roles = useFacilityRoleOptions(planId, facilityId ?? 0);
  return (
    <Select
      aria-label="Role"
      style={{ width: 180 }}
      placeholder="Role"
      value={value}
      onChange={onChange}
      disabled={facilityId === undefined}
      loading={facilityId !== undefined && roles.isPending}
      options={(facilityId === undefined ? [] : (roles.data ?? [])).map((role) => ({
        label: role.name,
        value: role.id,
      }))}
    />
  );
}

/** Which directory group gives which role in which facility, when a user is added from it. */
function GroupRolesField() {
  const { planId } = useSession();
  const facilities = useFacilities(planId);
  return (
    <Form.List name="groupRoles">
      {(fields, { add, remove }) => (
        <Form.Item label="Groups and roles" extra="A group by its DN or its cn.">
          {fields.map((field) => (
            <Space key={field.key} align="baseline" wrap>
              <Form.Item
                name={[field.name, 'group']}
                rules={[{ required: true, message: 'Group' }]}
              >
                <Input aria-label="Group" placeholder="cn=QA,ou=Groups,dc=example,dc=com" />
              </Form.Item>
              <Form.Item name={[field.name, 'facilityId']} rules={[{ required: true }]}>
                <Select
                  aria-label="Facility"
                  style={{ width: 180 }}
                  placeholder="Facility"
                  options={(facilities.data ?? []).map((f) => ({ label: f.name, value: f.id }))}
                />
              </Form.Item>
              <Form.Item
                noStyle
                shouldUpdate={(a: AdForm, b: AdForm) =>
                  a.groupRoles?.[field.name]?.facilityId !== b.groupRoles?.[field.name]?.facilityId
                }
              >
                {({ getFieldValue }) => (
                  <Form.Item name={[field.name, 'roleId']} rules={[{ required: true }]}>
                    <RoleSelect
                      facilityId={getFieldValue(['groupRoles', field.name, 'facilityId']) as number}
                    />
                  </Form.Item>
                )}
              </Form.Item>
              <Button onClick={() => remove(field.name)}>Remove</Button>
            </Space>
          ))}
          <Button onClick={() => add({})}>Add group</Button>
        </Form.Item>
      )}
    </Form.List>
  );
}

/** The plan's Active Directory (spec §7 activeDirectory); the bind password is write-only. */
export function ActiveDirectorySettingsForm({ canEdit }: { canEdit: boolean }) {
  const [form] = Form.useForm<AdForm>();
  const settings = useActiveDirectorySettings();
  const update = useUpdateActiveDirectorySettings();
  const ping = usePingActiveDirectory();

  if (settings.isPending) return <Spin />;
  if (settings.isError) return <Alert type="error" title={settings.error.message} />;
  const current = settings.data;

  async function onFinish(values: AdForm): Promise<void> {
    try {
      await update.mutateAsync({
        ...values,
        bindPassword: values.bindPassword || undefined,
        groupRoles: (values.groupRoles ?? []) as TGroupRole[],
        version: current.version,
      });
      form.setFieldsValue({ bindPassword: '', reason: '' });
      showSaved('Active Directory settings');
    } catch (error) {
      showSaveError(error, form, () => void settings.refetch());
    }
  }

  async function testConnection(): Promise<void> {
    const result = await ping.mutateAsync();
    if (result.success) void message.success(result.message);
    else void message.error(result.message);
  }

  return (
    <Form<AdForm>
      form={form}
      layout="vertical"
      initialValues={{
        enabled: current.enabled,
        url: current.url ?? '',
        baseDn: current.baseDn ?? '',
        bindDn: current.bindDn ?? '',
        userSearchAttributes: current.userSearchAttributes,
        useTls: current.useTls,
        groupRoles: current.groupRoles,
      }}
      onFinish={onFinish}
      disabled={!canEdit}
      aria-label="Active Directory"
      style={{ maxWidth: 720 }}
    >
      <Typography.Paragraph type="secondary">
        Users of auth type AD sign in with their directory password: the server finds their account
        with the service account below and binds as it. A directory on another machine must be
        reached with ldaps:// or StartTLS.
      </Typography.Paragraph>
      <Form.Item label="Active Directory enabled" name="enabled" valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item
        label="URL"
        name="url"
        rules={[{ required: true, message: 'Please input the directory URL' }]}
      >
        <Input placeholder="ldaps://dc1.example.com" />
      </Form.Item>
      <Form.Item label="StartTLS" name="useTls" valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item
        label="Base DN"
        name="baseDn"
        rules={[{ required: true, message: 'Please input the base DN' }]}
      >
        <Input placeholder="dc=example,dc=com" />
      </Form.Item>
      <Form.Item
        label="Bind DN"
        name="bindDn"
        rules={[{ required: true, message: 'Please input the bind DN' }]}
      >
        <Input placeholder="cn=carryover,ou=Service,dc=example,dc=com" />
      </Form.Item>
      <Form.Item
        label="Bind password"
        name="bindPassword"
        extra={
          current.hasBindPassword ? 'A password is stored; leave empty to keep it.' : undefined
        }
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        label="User search attributes"
        name="userSearchAttributes"
        extra="The first one is the Employee ID of users added from the directory."
      >
        <Select mode="tags" tokenSeparators={[',', ' ']} />
      </Form.Item>
      <GroupRolesField />
      {canEdit ? (
        <>
          <ReasonField label="Reason for change" rows={1} />
          <Space>
            <Button type="primary" htmlType="submit" loading={update.isPending}>
              Save Active Directory
            </Button>
            <Button
              disabled={!current.enabled}
              loading={ping.isPending}
              onClick={() => void testConnection()}
            >
              Test connection
            </Button>
          </Space>
        </>
      ) : null}
    </Form>
  );
}
