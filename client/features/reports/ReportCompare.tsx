import { formatNumber, formatQuantity } from '#core/units/format-number.ts';
import { Alert, Button, Flex, Table, Typography } from 'antd';
import { useState } from 'react';
import type { TCompareResponse, TCompareRow } from '#core/schemas/report-compare.schemas.ts';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { useReportCompare } from '#client/shared/reports/reports-api.ts';

type Cell = TCompareRow['old'];
const text = (value: Cell) => (value === null ? '—' : String(value));
const figure = (value: Cell) => (typeof value === 'number' ? formatNumber(value) : text(value));

function ChangedRows({ compare }: { compare: TCompareResponse }) {
  if (compare.rows.length === 0)
    return <Typography.Text>Nothing the report shows has changed.</Typography.Text>;
  if (compare.mode === 'limits')
    return (
      <Table<TCompareRow>
        aria-label="Changed limits"
        size="small"
        rowKey="key"
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        dataSource={compare.rows}
        columns={[
          { title: 'Pair', dataIndex: 'pair' },
          { title: 'MACO then (mg)', dataIndex: 'old', render: figure },
          { title: 'MACO now (mg)', dataIndex: 'new', render: figure },
          {
            title: '% change',
            dataIndex: 'percentChange',
            render: (p: number | null) => formatQuantity(p, '%'),
          },
        ]}
      />
    );
  return (
    <Table<TCompareRow>
      aria-label="Changed rows"
      size="small"
      rowKey="key"
      pagination={{ pageSize: 10, hideOnSinglePage: true }}
      dataSource={compare.rows}
      columns={[
        { title: 'Row', dataIndex: 'key' },
        { title: 'Change', dataIndex: 'change' },
        {
          title: 'Fields (then → now)',
          key: 'fields',
          render: (_: unknown, row) =>
            row.fields.map((f) => `${f.field}: ${text(f.old)} → ${text(f.new)}`).join('; '),
        },
      ]}
    />
  );
}

/** "Compare with today": what changed since the report, and the approvals and edits behind it. */
export function ReportCompare({ reportId }: { reportId: number }) {
  const [asked, setAsked] = useState(false);
  const compare = useReportCompare(reportId, asked);
  const { formatDateTime } = useDateFormat();
  if (!asked)
    return (
      <div>
        <Button onClick={() => setAsked(true)}>Compare with today</Button>
      </div>
    );
  if (compare.isPending) return <Typography.Text>Comparing with today…</Typography.Text>;
  if (compare.isError)
    return (
      <Alert type="error" showIcon title="Could not compare" description={compare.error.message} />
    );
  const c = compare.data;
  return (
    <Flex vertical gap="small" aria-label="Compare with today">
      <Typography.Title level={5}>Compare with today</Typography.Title>
      <Typography.Text>
        Data as of {formatDateTime(c.asOf)} against now ({formatDateTime(c.now)}):{' '}
        {c.same ? 'the same data.' : `${c.rows.length} rows changed.`}
      </Typography.Text>
      <ChangedRows compare={c} />
      <Typography.Text strong>Limits put in force since</Typography.Text>
      <Table
        aria-label="Limits snapshots since"
        size="small"
        rowKey="snapshotId"
        pagination={false}
        dataSource={c.snapshots}
        locale={{ emptyText: 'No limits snapshot was stored since the report.' }}
        columns={[
          { title: 'Snapshot', dataIndex: 'snapshotId' },
          { title: 'At', dataIndex: 'at', render: (at: string) => formatDateTime(at) },
          { title: 'Approval', dataIndex: 'title' },
          { title: 'Document type', dataIndex: 'documentType' },
        ]}
      />
      <Typography.Text strong>Edits since ({c.editCount})</Typography.Text>
      <Table
        aria-label="Edits since"
        size="small"
        rowKey={(r) => `${r.at}:${r.domain}:${r.entityId}:${r.action}`}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        dataSource={c.edits}
        columns={[
          { title: 'At', dataIndex: 'at', render: (at: string) => formatDateTime(at) },
          { title: 'By', dataIndex: 'userName' },
          {
            title: 'Record',
            key: 'record',
            render: (_: unknown, r) => `${r.domain} ${r.entityName ?? r.entityId ?? ''}`,
          },
          { title: 'Action', dataIndex: 'action' },
          {
            title: 'Cause',
            key: 'cause',
            render: (_: unknown, r) =>
              r.changeAssessment
                ? `${r.changeAssessment.number} ${r.changeAssessment.title}`
                : `Direct edit${r.reason ? `: ${r.reason}` : ''}`,
          },
        ]}
      />
    </Flex>
  );
}
