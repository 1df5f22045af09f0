import { Alert, Button, Card, Input, Modal, Spin, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import type { OutboxMail } from './outbox-api.ts';
import { useOutbox, useOutboxMessage } from './outbox-api.ts';

/**
 * Mails the application wrote. Without SMTP they stay here; the server masks the links and keys
 * in other users' mails, so a pending invitation is passed on as a secret key instead. Opening a
 * mail is recorded in the audit trail.
 */
export function OutboxPage() {
  const { formatDateTime } = useDateFormat();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState({ pageNumber: 1, pageLimit: 10 });
  const [openId, setOpenId] = useState<number | null>(null);
  const mails = useOutbox(search, page.pageNumber, page.pageLimit);

  return (
    <Card>
      <Typography.Title level={2}>Mail Outbox</Typography.Title>
      <Input.Search
        placeholder="Search address or subject"
        allowClear
        onSearch={(value) => {
          setSearch(value.trim());
          setPage((current) => ({ ...current, pageNumber: 1 }));
        }}
        style={{ maxWidth: 360, marginBottom: 16 }}
        aria-label="Search mails"
      />
      {mails.isError ? <Alert type="error" title={mails.error.message} /> : null}
      <Table<OutboxMail>
        rowKey="id"
        size="small"
        loading={mails.isFetching}
        dataSource={mails.data?.data ?? []}
        pagination={{
          current: page.pageNumber,
          pageSize: page.pageLimit,
          total: mails.data?.total ?? 0,
          onChange: (pageNumber, pageLimit) => setPage({ pageNumber, pageLimit }),
        }}
        columns={[
          { title: 'Written', dataIndex: 'createdAt', render: (v: string) => formatDateTime(v) },
          { title: 'To', dataIndex: 'to' },
          { title: 'Subject', dataIndex: 'subject' },
          {
            title: 'Status',
            key: 'status',
            render: (_, mail) =>
              mail.sentAt ? (
                <Tag color="green">Sent {formatDateTime(mail.sentAt)}</Tag>
              ) : mail.lastError ? (
                <Tag color="red" title={mail.lastError}>
                  Failed ({mail.attempts})
                </Tag>
              ) : (
                <Tag>Not sent</Tag>
              ),
          },
          {
            title: '',
            key: 'open',
            render: (_, mail) => (
              <Button size="small" onClick={() => setOpenId(mail.id)}>
                Open
              </Button>
            ),
          },
        ]}
      />
      {openId !== null ? <MailModal id={openId} onClose={() => setOpenId(null)} /> : null}
    </Card>
  );
}

function MailModal({ id, onClose }: { id: number; onClose: () => void }) {
  const message = useOutboxMessage(id);
  return (
    <Modal
      open
      title={message.data?.subject ?? 'Mail'}
      footer={null}
      onCancel={onClose}
      width={720}
    >
      {message.isPending ? <Spin /> : null}
      {message.isError ? <Alert type="error" title={message.error.message} /> : null}
      {message.data ? (
        <>
          <Typography.Paragraph>
            To: <Typography.Text strong>{message.data.to}</Typography.Text>
          </Typography.Paragraph>
          <Typography.Paragraph copyable={{ text: message.data.text }}>
            <pre style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {message.data.text}
            </pre>
          </Typography.Paragraph>
        </>
      ) : null}
    </Modal>
  );
}
