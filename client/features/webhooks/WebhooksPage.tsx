import {
  Alert,
  Button,
  Checkbox,
  Form,
  Input,
  Modal,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import type { TableColumnsType } from 'antd';
import { useState } from 'react';
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  type TWebhook,
  type TWebhookDelivery,
  type TWebhookEvent,
} from '#core/schemas/webhooks.schemas.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { serverPaging } from '#client/shared/paging.ts';
import { useEditBase } from '#client/shared/use-edit-base.ts';
import { ReasonDialog, type ReasonValues } from '#client/shared/reason/ReasonDialog.tsx';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import {
  useArchiveWebhook,
  useDeliveries,
  useRedeliver,
  useSaveWebhook,
  useWebhooks,
} from './webhooks-api.ts';

/*
 * Webhooks (issue 33): the facility's events posted to other systems, signed with a secret that
 * is shown once. Each hook's delivery log shows every try.
 */

type Dialog =
  | { kind: 'form'; hook: TWebhook | null }
  | { kind: 'deliveries'; hook: TWebhook }
  | { kind: 'archive'; hook: TWebhook };

interface HookForm {
  url: string;
  events: TWebhookEvent[];
  secret?: string;
  rotateSecret?: boolean;
  reason?: string;
}

const EVENT_OPTIONS = WEBHOOK_EVENTS.map((event) => ({
  value: event,
  label: `${WEBHOOK_EVENT_LABELS[event]} (${event})`,
}));

function HookFormModal({
  hook,
  onSecret,
  onClose,
}: {
  hook: TWebhook | null;
  onSecret: (secret: string) => void;
  onClose: () => void;
}) {
  const scope = useFacilityScope();
  const [form] = Form.useForm<HookForm>();
  const save = useSaveWebhook(scope);
  const base = useEditBase(hook?.version ?? 1);
  const rotate = Form.useWatch('rotateSecret', form) === true;

  async function submit(values: HookForm): Promise<void> {
    const secret = values.secret?.trim() ? values.secret : undefined;
    if (!hook) {
      const made = await save.mutateAsync({
        kind: 'create',
        body: { url: values.url, events: values.events, ...(secret && { secret }) },
      });
      if (made.secret && !secret) onSecret(made.secret);
      return;
    }
    const saved = await save.mutateAsync({
      kind: 'edit',
      id: hook.id,
      body: {
        url: values.url,
        events: values.events,
        ...(values.rotateSecret ? { rotateSecret: true as const } : secret ? { secret } : {}),
        reason: values.reason ?? '',
        version: base.version,
      },
    });
    base.follow();
    if (saved.secret) onSecret(saved.secret);
  }

  return (
    <ReasonDialog<HookForm>
      form={form}
      askReason={hook !== null}
      width={640}
      title={hook ? 'Edit Webhook' : 'Add Webhook'}
      okText={hook ? 'Save' : 'Add Webhook'}
      canSubmit={!base.settling}
      initialValues={hook ? { url: hook.url, events: hook.events } : { events: [] }}
      onSubmit={submit}
      onConflict={base.follow}
      onClose={onClose}
    >
      <Form.Item
        label="URL"
        name="url"
        rules={[{ required: true, whitespace: true, message: 'Please enter the URL' }]}
        extra="Where the other system receives the events: an http:// or https:// address."
      >
        <Input autoComplete="off" placeholder="https://mes.example.com/carryover-events" />
      </Form.Item>
      <Form.Item
        label="Events"
        name="events"
        rules={[{ required: true, type: 'array', min: 1, message: 'Choose at least one event' }]}
      >
        <Checkbox.Group options={EVENT_OPTIONS} style={{ display: 'grid', gap: 4 }} />
      </Form.Item>
      {hook && (
        <Form.Item name="rotateSecret" valuePropName="checked">
          <Checkbox>Make a new secret (the old one stops working at once)</Checkbox>
        </Form.Item>
      )}
      {!rotate && (
        <Form.Item
          label={hook ? 'New secret of your own' : 'Secret'}
          name="secret"
          rules={[{ min: 16, message: 'A secret has at least 16 characters' }]}
          extra={
            hook
              ? 'Leave empty to keep the secret in use.'
              : 'Leave empty and the application makes one, shown once after saving.'
          }
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      )}
    </ReasonDialog>
  );
}

const STATE_TAGS: Record<TWebhookDelivery['state'], { color: string; label: string }> = {
  pending: { color: 'gold', label: 'Waiting' },
  delivered: { color: 'green', label: 'Delivered' },
  failed: { color: 'red', label: 'Given up' },
};

/**
 * The delivery log: every event with its tries, newest first, refreshed while open. A delivery
 * given up can be sent again by whoever administers the hooks, with a reason.
 */
function DeliveriesModal({
  hook,
  canSend,
  onClose,
}: {
  hook: TWebhook;
  canSend: boolean;
  onClose: () => void;
}) {
  const scope = useFacilityScope();
  const dates = useDateFormat();
  const [paging, setPaging] = useState({ pageNumber: 1, pageLimit: 10 });
  const log = useDeliveries(scope, hook.id, paging);
  const redeliver = useRedeliver(scope, hook.id);
  const [sending, setSending] = useState<TWebhookDelivery | null>(null);
  const canRedeliver = (d: TWebhookDelivery) =>
    canSend && d.state === 'failed' && hook.archivedAt === null;
  const columns: TableColumnsType<TWebhookDelivery> = [
    { title: 'Event', key: 'event', render: (_, d) => WEBHOOK_EVENT_LABELS[d.event] },
    { title: 'Record', key: 'record', render: (_, d) => d.subject },
    { title: 'Happened', key: 'at', render: (_, d) => dates.formatDateTime(d.occurredAt) },
    {
      title: 'State',
      key: 'state',
      render: (_, d) => <Tag color={STATE_TAGS[d.state].color}>{STATE_TAGS[d.state].label}</Tag>,
    },
    {
      title: 'Tries',
      key: 'attempts',
      render: (_, d) => (
        <Space direction="vertical" size={0}>
          {d.attempts.map((a) => (
            <Typography.Text key={a.attempt} type={a.error ? 'danger' : undefined}>
              {a.attempt}. {dates.formatDateTime(a.at)}: {a.error ?? `HTTP ${a.status}`} ({a.ms} ms)
            </Typography.Text>
          ))}
          {d.nextAttemptAt && (
            <Typography.Text type="secondary">
              Next try {dates.formatDateTime(d.nextAttemptAt)}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: '',
      key: 'actions',
      render: (_, d) =>
        canRedeliver(d) ? (
          <Button size="small" onClick={() => setSending(d)}>
            Redeliver
          </Button>
        ) : null,
    },
  ];
  return (
    <Modal
      open
      width={1000}
      title={`Deliveries to ${hook.url}`}
      onCancel={onClose}
      footer={<Button onClick={onClose}>Close</Button>}
    >
      <Table<TWebhookDelivery>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={log.data?.data ?? []}
        loading={log.isPending}
        pagination={serverPaging(
          paging,
          log.data?.total ?? 0,
          { one: 'delivery', many: 'deliveries' },
          (pageNumber, pageLimit) => setPaging({ pageNumber, pageLimit }),
        )}
      />
      {sending && (
        <ReasonDialog
          title={`Redeliver: ${WEBHOOK_EVENT_LABELS[sending.event]}, ${sending.subject}`}
          okText="Redeliver"
          description="The event is posted again at once, with the same body and retries as a first delivery; its earlier tries stay in the log."
          onSubmit={({ reason }: ReasonValues) =>
            redeliver.mutateAsync({ delivery: sending, reason })
          }
          onClose={() => setSending(null)}
        />
      )}
    </Modal>
  );
}

/** The facility's webhooks: add, edit, archive with a reason, and read the delivery log. */
export function WebhooksPage() {
  const scope = useFacilityScope();
  const permissions = usePermissions();
  const dates = useDateFormat();
  const [tab, setTab] = useState<'live' | 'archived'>('live');
  const hooks = useWebhooks(scope, tab === 'archived');
  const archive = useArchiveWebhook(scope);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const canModify = permissions.can('Facility', 'Modify');

  const columns: TableColumnsType<TWebhook> = [
    { title: 'URL', dataIndex: 'url' },
    {
      title: 'Events',
      key: 'events',
      render: (_, h) => h.events.map((e) => <Tag key={e}>{WEBHOOK_EVENT_LABELS[e]}</Tag>),
    },
    {
      title: 'Deliveries',
      key: 'state',
      render: (_, h) => (
        <Space size={4}>
          {h.pending > 0 && <Tag color="gold">{h.pending} waiting</Tag>}
          {h.failed > 0 && <Tag color="red">{h.failed} given up</Tag>}
          {h.lastDeliveredAt
            ? `Last delivered ${dates.formatDateTime(h.lastDeliveredAt)}`
            : 'None delivered yet'}
        </Space>
      ),
    },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, h) => (
        <Space>
          <Button size="small" onClick={() => setDialog({ kind: 'deliveries', hook: h })}>
            Deliveries
          </Button>
          {canModify && !h.archivedAt && (
            <Button size="small" onClick={() => setDialog({ kind: 'form', hook: h })}>
              Edit
            </Button>
          )}
          {canModify && (
            <Button
              size="small"
              danger={!h.archivedAt}
              onClick={() => setDialog({ kind: 'archive', hook: h })}
            >
              {h.archivedAt ? 'Unarchive' : 'Archive'}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <div>
      <Typography.Title level={3}>Webhooks</Typography.Title>
      <Typography.Paragraph>
        Other systems of the site receive this facility&apos;s events as they happen. Each post is
        signed with the hook&apos;s secret (HMAC-SHA256 in the X-Carryover-Signature header); events
        of one record arrive in order, and a receiver that fails is tried again.
      </Typography.Paragraph>
      {secret && (
        <Alert
          type="warning"
          showIcon
          closable
          onClose={() => setSecret(null)}
          style={{ marginBottom: 16 }}
          title="This secret is shown only once"
          description={
            <>
              <Typography.Paragraph>
                Copy it now into the receiving system, which checks each post with it. It cannot be
                shown again: if it is lost, make a new one.
              </Typography.Paragraph>
              <Typography.Paragraph copyable={{ text: secret }} code data-testid="webhook-secret">
                {secret}
              </Typography.Paragraph>
            </>
          }
        />
      )}
      {hooks.isError && <Alert type="error" title={hooks.error.message} />}
      {canModify && (
        <Button type="primary" onClick={() => setDialog({ kind: 'form', hook: null })}>
          Add Webhook
        </Button>
      )}
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as 'live' | 'archived')}
        items={[
          { key: 'live', label: 'Webhooks' },
          { key: 'archived', label: 'Archived' },
        ]}
      />
      <Table<TWebhook>
        rowKey="id"
        columns={columns}
        dataSource={hooks.data?.data ?? []}
        loading={hooks.isPending}
        pagination={false}
      />
      {dialog?.kind === 'form' && (
        <HookFormModal hook={dialog.hook} onSecret={setSecret} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'deliveries' && (
        <DeliveriesModal hook={dialog.hook} canSend={canModify} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'archive' && (
        <ReasonDialog
          title={`${dialog.hook.archivedAt ? 'Unarchive' : 'Archive'} the webhook to ${dialog.hook.url}`}
          okText={dialog.hook.archivedAt ? 'Unarchive' : 'Archive'}
          danger={!dialog.hook.archivedAt}
          description={
            dialog.hook.archivedAt
              ? 'Events wait no longer: what waited is delivered, in order.'
              : 'No more events are posted to it; those waiting stay in its log.'
          }
          onSubmit={({ reason }: ReasonValues) =>
            archive.mutateAsync({ hook: dialog.hook, reason })
          }
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}
