import { Alert, Button, Form, Input, Select, Spin, Switch, Typography } from 'antd';
import type { TUpdateSsoSettingsRequest } from '#core/schemas/auth.schemas.ts';
import { ReasonField } from '#client/shared/reason/ReasonDialog.tsx';
import { showSaveError } from '#client/api/form-errors.ts';
import { showSaved } from './save-feedback.ts';
import { useSsoSettings, useUpdateSsoSettings } from '#client/shared/settings/settings-api.ts';

type SsoForm = Omit<TUpdateSsoSettingsRequest, 'version' | 'logoutUrl'> & { logoutUrl?: string };

/** The plan's single sign-on provider (spec §2 SSO); the client secret is write-only. */
export function SsoSettingsForm({ canEdit }: { canEdit: boolean }) {
  const [form] = Form.useForm<SsoForm>();
  const provider = Form.useWatch('provider', form);
  const settings = useSsoSettings();
  const update = useUpdateSsoSettings();

  if (settings.isPending) return <Spin />;
  if (settings.isError) return <Alert type="error" title={settings.error.message} />;
  const current = settings.data;

  async function onFinish(values: SsoForm): Promise<void> {
    try {
      await update.mutateAsync({
        ...values,
        clientSecret: values.clientSecret || undefined,
        logoutUrl: values.logoutUrl?.trim() || null,
        version: current.version,
      });
      form.setFieldsValue({ clientSecret: '', reason: '' });
      showSaved('Single sign-on settings');
    } catch (error) {
      showSaveError(error, form, () => void settings.refetch());
    }
  }

  return (
    <Form<SsoForm>
      form={form}
      layout="vertical"
      initialValues={{
        enabled: current.enabled,
        provider: current.provider ?? 'azure',
        issuer: current.issuer ?? '',
        clientId: current.clientId ?? '',
        logoutUrl: current.logoutUrl ?? '',
      }}
      onFinish={onFinish}
      disabled={!canEdit}
      aria-label="Single sign-on"
      style={{ maxWidth: 560 }}
    >
      <Typography.Paragraph type="secondary">
        Users of auth type SSO sign in with this OpenID Connect provider, matched by e-mail or user
        principal name. Register this redirect address at the provider:{' '}
        <Typography.Text copyable code>
          {redirectAddress(provider ?? current.provider ?? 'azure')}
        </Typography.Text>
      </Typography.Paragraph>
      <Form.Item label="Single sign-on enabled" name="enabled" valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item label="Provider" name="provider" rules={[{ required: true }]}>
        <Select
          options={[
            { value: 'azure', label: 'Azure' },
            { value: 'okta', label: 'Okta' },
          ]}
        />
      </Form.Item>
      <Form.Item
        label="Issuer URL"
        name="issuer"
        extra="Azure: https://login.microsoftonline.com/<tenant>/v2.0 — Okta: your Okta org URL"
        rules={[{ required: true, message: 'Please input the issuer URL' }]}
      >
        <Input />
      </Form.Item>
      <Form.Item
        label="Client ID"
        name="clientId"
        rules={[{ required: true, message: 'Please input the client ID' }]}
      >
        <Input />
      </Form.Item>
      <Form.Item
        label="Client secret"
        name="clientSecret"
        extra={current.hasClientSecret ? 'A secret is stored; leave empty to keep it.' : undefined}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item label="Logout URL" name="logoutUrl">
        <Input />
      </Form.Item>
      {canEdit ? (
        <>
          <ReasonField label="Reason for change" rows={1} />
          <Button type="primary" htmlType="submit" loading={update.isPending}>
            Save single sign-on
          </Button>
        </>
      ) : null}
    </Form>
  );
}

/**
 * The whole address the provider sends users back to, for the administrator to copy: this
 * server's origin and the chosen provider, not a path to fill in by hand.
 */
function redirectAddress(provider: string): string {
  return `${window.location.origin}/api/v2/auth/sso/${provider}/verify`;
}
