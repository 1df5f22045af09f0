import { Table, Tag, Typography } from 'antd';
import type { TableProps } from 'antd';
import type { TControlledDocumentType, TSignature } from '#core/schemas/signatures.schemas.ts';
import { useDateFormat } from '../use-date-format.ts';
import { useSignatures } from './records-api.ts';

/**
 * The signatures of a record, oldest first (Part 11 §11.50): who signed, in which role, what the
 * signature means, when (in the facility's time zone) and whether it still verifies.
 */
export function SignaturesPanel(props: {
  documentType: TControlledDocumentType;
  documentId: number;
}) {
  const signatures = useSignatures(props.documentType, props.documentId);
  const { formatDateTime } = useDateFormat();
  const columns: TableProps<TSignature>['columns'] = [
    { key: 'versionNumber', dataIndex: 'versionNumber', title: 'Version', width: 80 },
    { key: 'printedName', dataIndex: 'printedName', title: 'Signed by' },
    { key: 'signerRole', dataIndex: 'signerRole', title: 'Role' },
    {
      key: 'meaning',
      dataIndex: 'meaning',
      title: 'Meaning',
      render: (meaning: string, signature) =>
        signature.reason ? `${meaning} — ${signature.reason}` : meaning,
    },
    {
      key: 'signedAt',
      dataIndex: 'signedAt',
      title: 'When',
      render: (signedAt: string) => formatDateTime(signedAt),
    },
    {
      key: 'valid',
      dataIndex: 'valid',
      title: 'Valid',
      render: (valid: boolean) =>
        valid ? (
          <Tag color="success">Valid</Tag>
        ) : (
          <Tag color="error">Invalid — record changed since signing</Tag>
        ),
    },
  ];
  return (
    <section aria-label="Signatures">
      <Typography.Title level={5}>Signatures</Typography.Title>
      <Table<TSignature>
        rowKey="id"
        size="small"
        pagination={false}
        loading={signatures.isPending}
        columns={columns}
        dataSource={signatures.data ?? []}
        locale={{ emptyText: signatures.isError ? signatures.error.message : 'Not signed yet' }}
      />
    </section>
  );
}
