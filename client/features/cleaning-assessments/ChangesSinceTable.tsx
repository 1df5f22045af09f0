import { Alert, Table, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { auditActionLabel, auditDomainLabel } from '#core/audit/audit-format.ts';
import { recordLink } from '#client/shared/records/record-links.ts';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import {
  useChangesSince,
  type DataChange,
} from '#client/shared/cleaning-assessments/cleaning-assessments-api.ts';

/**
 * The changes to the facility's GMP data since the latest assessment (or the one before
 * `assessmentId`), from the audit trail, newest first, each with the change assessment whose
 * approval made it.
 */
export function ChangesSinceTable({ assessmentId }: { assessmentId?: number }) {
  const { formatDateTime } = useDateFormat();
  const [page, setPage] = useState({ pageNumber: 1, pageLimit: 10 });
  const changes = useChangesSince(assessmentId, page);
  if (changes.isError) return <Alert type="error" showIcon title={changes.error.message} />;
  const since = changes.data?.since;
  return (
    <>
      <Typography.Paragraph type="secondary">
        {changes.data
          ? since
            ? `Changes to GMP data since ${formatDateTime(since)}.`
            : 'No earlier assessment: every change to GMP data so far.'
          : null}
      </Typography.Paragraph>
      <Table<DataChange>
        aria-label="Changes since the assessment"
        size="small"
        loading={changes.isFetching}
        rowKey={(row, index) => `${row.at}:${row.entityId ?? ''}:${index ?? 0}`}
        dataSource={changes.data?.changes ?? []}
        locale={{ emptyText: 'No change to GMP data since then.' }}
        pagination={{
          current: page.pageNumber,
          pageSize: page.pageLimit,
          total: changes.data?.total ?? 0,
          showSizeChanger: true,
          onChange: (pageNumber, pageLimit) => setPage({ pageNumber, pageLimit }),
        }}
        columns={[
          { title: 'When', dataIndex: 'at', render: (at: string) => formatDateTime(at) },
          { title: 'Who', dataIndex: 'userName', render: (name: string | null) => name ?? '—' },
          // The trail's own codes ('AnalyticalMethod', 'SignatureRefused') in words, as the
          // audit log shows them (issue 30).
          {
            title: 'Area',
            dataIndex: 'domain',
            render: (domain: string) => auditDomainLabel(domain),
          },
          {
            title: 'Action',
            dataIndex: 'action',
            render: (action: string) => auditActionLabel(action),
          },
          {
            title: 'Record',
            dataIndex: 'entityName',
            render: (name: string | null, row) => name ?? row.entityId ?? '—',
          },
          { title: 'Reason', dataIndex: 'reason', render: (r: string | null) => r ?? '—' },
          {
            title: 'Change assessment',
            dataIndex: 'changeAssessment',
            render: (change: DataChange['changeAssessment']) =>
              change ? (
                <Link to={recordLink('ChangeAssessment', change.id) ?? ''}>
                  {change.number} {change.title}
                </Link>
              ) : (
                '—'
              ),
          },
        ]}
      />
    </>
  );
}
