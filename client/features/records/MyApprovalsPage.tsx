import { documentTypeLabel } from '#core/labels/enum-labels.ts';
import { Card, Table, Typography } from 'antd';
import type { TableProps } from 'antd';
import { Link } from 'react-router';
import type { TPendingApproval } from '#core/schemas/signatures.schemas.ts';
import { STATUS_LABELS } from '#core/records/status-labels.ts';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { recordLink } from '#client/shared/records/record-links.ts';
import { usePendingApprovals } from '#client/shared/records/records-api.ts';
import { LoadErrorAlert } from '#client/shared/LoadErrorAlert.tsx';

/** The records waiting for the signed-in user's signature in this facility. */
export function MyApprovalsPage() {
  const pending = usePendingApprovals();
  const { formatDateTime } = useDateFormat();
  const columns: TableProps<TPendingApproval>['columns'] = [
    {
      key: 'title',
      dataIndex: 'title',
      title: 'Record',
      render: (title: string, item) => {
        const link = recordLink(item.documentType, item.documentId);
        return link ? <Link to={link}>{title}</Link> : title;
      },
    },
    {
      key: 'documentType',
      dataIndex: 'documentType',
      title: 'Type',
      render: (type: string) => documentTypeLabel(type),
    },
    { key: 'versionNumber', dataIndex: 'versionNumber', title: 'Version' },
    {
      key: 'status',
      dataIndex: 'status',
      title: 'Status',
      render: (status: TPendingApproval['status']) => STATUS_LABELS[status],
    },
    { key: 'action', dataIndex: 'action', title: 'Your signature' },
    { key: 'submittedBy', dataIndex: 'submittedBy', title: 'Submitted by' },
    {
      key: 'submittedAt',
      dataIndex: 'submittedAt',
      title: 'Submitted',
      render: (value: string) => formatDateTime(value),
    },
  ];
  return (
    <Card>
      <Typography.Title level={2}>My approvals</Typography.Title>
      <Typography.Paragraph type="secondary">
        Records in this facility waiting for your review or approval. Open one to sign it.
      </Typography.Paragraph>
      {pending.isError ? (
        <LoadErrorAlert title="Could not load the records waiting for you" query={pending} />
      ) : null}
      <Table<TPendingApproval>
        rowKey={(item) => `${item.documentType}:${item.documentId}:${item.versionNumber}`}
        loading={pending.isPending}
        columns={columns}
        dataSource={pending.data?.items ?? []}
        locale={{ emptyText: 'Nothing waiting for your signature' }}
        pagination={false}
      />
    </Card>
  );
}
