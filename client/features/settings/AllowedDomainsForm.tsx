import { Alert, Button, Form, Select, Spin, Typography } from 'antd';
import { ReasonField } from '#client/shared/reason/ReasonDialog.tsx';
import { showSaveError } from '#client/api/form-errors.ts';
import { showSaved } from './save-feedback.ts';
import {
  useAllowedDomains,
  useUpdateAllowedDomains,
} from '#client/shared/settings/settings-api.ts';

interface DomainsForm {
  allowedDomains: string[];
  reason: string;
}

export function AllowedDomainsForm({ canEdit }: { canEdit: boolean }) {
  const [form] = Form.useForm<DomainsForm>();
  const domains = useAllowedDomains();
  const update = useUpdateAllowedDomains();

  if (domains.isPending) return <Spin />;
  if (domains.isError) return <Alert type="error" title={domains.error.message} />;

  async function onFinish(values: DomainsForm): Promise<void> {
    try {
      const saved = await update.mutateAsync({ ...values, version: domains.data!.version });
      form.setFieldsValue({ allowedDomains: saved.allowedDomains, reason: '' });
      showSaved('Allowed domains');
    } catch (error) {
      showSaveError(error, form, () => void domains.refetch());
    }
  }

  return (
    <Form<DomainsForm>
      form={form}
      layout="vertical"
      initialValues={{ allowedDomains: domains.data.allowedDomains }}
      onFinish={onFinish}
      disabled={!canEdit}
      aria-label="Allowed domains"
      style={{ maxWidth: 560 }}
    >
      <Typography.Paragraph type="secondary">
        New users’ e-mail addresses must belong to one of these domains. With none listed, any
        domain is allowed.
      </Typography.Paragraph>
      <Form.Item label="Allowed e-mail domains" name="allowedDomains">
        <Select
          mode="tags"
          tokenSeparators={[',', ' ']}
          placeholder="example.com"
          open={false}
          aria-label="Allowed e-mail domains"
        />
      </Form.Item>
      {canEdit ? (
        <>
          <ReasonField label="Reason for change" rows={1} />
          <Button type="primary" htmlType="submit" loading={update.isPending}>
            Save allowed domains
          </Button>
        </>
      ) : null}
    </Form>
  );
}
