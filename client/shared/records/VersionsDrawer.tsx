import { Alert, Drawer, Table, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { TRecordVersion } from '#core/schemas/versions.schemas.ts';
import { STATUS_LABELS } from '#core/records/status-labels.ts';
import type { TRecordStatus } from '#core/schemas/signatures.schemas.ts';
import { useDateFormat } from '../use-date-format.ts';
import { listVersions, recordsKeys } from './records-api.ts';
import { showValue, versionDifferences, type FieldDifference } from './version-diff.ts';

interface VersionsDrawerProps {
  /** The record’s path below /api/v2 (…/sop/12); its versions are `${path}/versions`. */
  path: string;
  title: string;
  /** Field names as the form shows them; others are shown as the API names them. */
  labels?: Record<string, string>;
  /** A field's value as the screen shows it (references by name); plain text otherwise. */
  formatValue?: (field: string, value: unknown) => string;
  onClose: () => void;
}

/** Every kept version of a record; two picked show their differences field by field. */
export function VersionsDrawer(props: VersionsDrawerProps) {
  const { path, title, labels = {}, onClose } = props;
  const format = props.formatValue ?? ((_field: string, value: unknown) => showValue(value));
  const { formatDateTime } = useDateFormat();
  const versions = useQuery({
    queryKey: recordsKeys.versions(path),
    queryFn: ({ signal }) => listVersions(path, signal),
  });
  const [picked, setPicked] = useState<number[]>([]);
  const list = versions.data?.versions ?? [];
  const chosen = list
    .filter((version) => picked.includes(version.version))
    .sort((a, b) => a.version - b.version);
  const [before, after] = chosen;

  // Controlled records' reads carry their version number and status; other records' do not.
  const controlled = list.some((row) => 'versionNumber' in row.values);
  const columns: TableProps<TRecordVersion>['columns'] = [
    { key: 'version', dataIndex: 'version', title: 'Version', width: 80 },
    ...(controlled
      ? [
          {
            key: 'record',
            title: 'Record version',
            render: (_: unknown, row: TRecordVersion) => showValue(row.values.versionNumber),
          },
          {
            key: 'status',
            title: 'Status',
            render: (_: unknown, row: TRecordVersion) =>
              STATUS_LABELS[row.values.status as TRecordStatus] ?? showValue(row.values.status),
          },
        ]
      : []),
    {
      key: 'recordedAt',
      dataIndex: 'recordedAt',
      title: 'Recorded',
      render: (value: string) => formatDateTime(value),
    },
    {
      key: 'recordedBy',
      title: 'By',
      render: (_: unknown, row) => row.recordedBy?.name ?? '—',
    },
  ];
  const diffColumns: TableProps<FieldDifference>['columns'] = [
    { key: 'field', dataIndex: 'field', title: 'Field', render: (f: string) => labels[f] ?? f },
    {
      key: 'before',
      dataIndex: 'before',
      title: before ? `Version ${before.version}` : 'Before',
      render: (value: unknown, row) => format(row.field, value),
    },
    {
      key: 'after',
      dataIndex: 'after',
      title: after ? `Version ${after.version}` : 'After',
      render: (value: unknown, row) => format(row.field, value),
    },
  ];

  return (
    <Drawer open size={720} title={`Version history: ${title}`} onClose={onClose}>
      {versions.isError ? <Alert type="error" showIcon title={versions.error.message} /> : null}
      <Typography.Paragraph type="secondary">
        Pick two versions to see what changed between them.
      </Typography.Paragraph>
      <Table<TRecordVersion>
        rowKey="version"
        size="small"
        pagination={false}
        loading={versions.isPending}
        columns={columns}
        dataSource={list}
        rowSelection={{
          type: 'checkbox',
          hideSelectAll: true,
          selectedRowKeys: picked,
          // The two last picked are compared.
          onChange: (keys) => setPicked(keys.map(Number).slice(-2)),
        }}
      />
      {before && after ? (
        <section aria-label="Differences" style={{ marginTop: 24 }}>
          <Typography.Title level={5}>
            Differences between version {before.version} and version {after.version}
          </Typography.Title>
          <Table<FieldDifference>
            rowKey="field"
            size="small"
            pagination={false}
            columns={diffColumns}
            dataSource={versionDifferences(before, after)}
            locale={{ emptyText: 'No differences' }}
          />
        </section>
      ) : null}
    </Drawer>
  );
}
