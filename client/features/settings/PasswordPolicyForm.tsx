import { Alert, Button, Form, InputNumber, Space, Spin } from 'antd';
import type { TPasswordPolicy } from '#core/schemas/settings.schemas.ts';
import { ReasonField } from '#client/shared/reason/ReasonDialog.tsx';
import { showSaveError } from '#client/api/form-errors.ts';
import { showSaved } from './save-feedback.ts';
import {
  usePasswordPolicy,
  useUpdatePasswordPolicy,
} from '#client/shared/settings/settings-api.ts';

type PolicyForm = Omit<TPasswordPolicy, 'version'> & { reason: string };

const COMPOSITION: {
  name: keyof TPasswordPolicy['passwordPolicySettings'];
  label: string;
  min: number;
  max: number;
}[] = [
  { name: 'minPasswordLength', label: 'Minimum length', min: 8, max: 64 },
  { name: 'minCapital', label: 'Capital letters', min: 0, max: 10 },
  { name: 'minNumber', label: 'Numbers', min: 0, max: 10 },
  { name: 'specialCharacters', label: 'Special characters', min: 0, max: 10 },
];

const SECURITY: {
  name: keyof Omit<TPasswordPolicy, 'passwordPolicySettings' | 'version'>;
  label: string;
  min: number;
  max: number;
  extra?: string;
}[] = [
  { name: 'maxLoginAttempts', label: 'Failed sign-ins before lockout', min: 1, max: 20 },
  { name: 'lockoutMinutes', label: 'Lockout (minutes)', min: 1, max: 1440 },
  {
    name: 'passwordExpiryDays',
    label: 'Password expires after (days)',
    min: 0,
    max: 3650,
    extra: '0 turns expiry off.',
  },
  {
    name: 'passwordHistoryCount',
    label: 'Previous passwords that may not be reused',
    min: 0,
    max: 24,
  },
];

export function PasswordPolicyForm({ canEdit }: { canEdit: boolean }) {
  const [form] = Form.useForm<PolicyForm>();
  const policy = usePasswordPolicy();
  const update = useUpdatePasswordPolicy();

  if (policy.isPending) return <Spin />;
  if (policy.isError) return <Alert type="error" title={policy.error.message} />;
  const { version, ...values } = policy.data;

  async function onFinish(submitted: PolicyForm): Promise<void> {
    try {
      await update.mutateAsync({ ...submitted, version });
      form.setFieldValue('reason', '');
      showSaved('Password policy');
    } catch (error) {
      showSaveError(error, form, () => void policy.refetch());
    }
  }

  return (
    <Form<PolicyForm>
      form={form}
      layout="vertical"
      initialValues={values}
      onFinish={onFinish}
      disabled={!canEdit}
      aria-label="Password policy"
      style={{ maxWidth: 560 }}
    >
      <Space wrap size="large">
        {COMPOSITION.map((field) => (
          <Form.Item
            key={field.name}
            label={field.label}
            name={['passwordPolicySettings', field.name]}
            rules={[{ required: true, message: 'Required' }]}
          >
            <InputNumber min={field.min} max={field.max} precision={0} />
          </Form.Item>
        ))}
      </Space>
      <Space wrap size="large">
        {SECURITY.map((field) => (
          <Form.Item
            key={field.name}
            label={field.label}
            name={field.name}
            extra={field.extra}
            rules={[{ required: true, message: 'Required' }]}
          >
            <InputNumber min={field.min} max={field.max} precision={0} />
          </Form.Item>
        ))}
      </Space>
      {canEdit ? (
        <>
          <ReasonField label="Reason for change" rows={1} />
          <Button type="primary" htmlType="submit" loading={update.isPending}>
            Save password policy
          </Button>
        </>
      ) : null}
    </Form>
  );
}
