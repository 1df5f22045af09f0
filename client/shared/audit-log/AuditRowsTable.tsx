import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, Table, type TableColumnsType } from 'antd';
import { auditWhat } from '#core/audit/audit-format.ts';
import { serverPaging } from '#client/shared/paging.ts';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { AuditChanges } from './AuditChanges.tsx';
import type { AuditLogPage, AuditLogRow } from './audit-log-api.ts';

export interface AuditPage {
  pageNumber: number;
  pageLimit: number;
}

export const FIRST_AUDIT_PAGE: AuditPage = { pageNumber: 1, pageLimit: 10 };

interface AuditRowsTableProps {
  rows: UseQueryResult<AuditLogPage>;
  page: AuditPage;
  onPage: (page: AuditPage) => void;
  label: string;
  /** One record's rows: its own domain's actions read plainly, and no facility column. */
  ownDomain?: string;
  emptyText?: string;
}

/**
 * Audit rows as the audit log and a record's History tab both show them: who, what, when, why
 * and the changes, read by one formatter, a page at a time.
 */
export function AuditRowsTable({
  rows,
  page,
  onPage,
  label,
  ownDomain,
  emptyText,
}: AuditRowsTableProps) {
  const { formatDateTime, settings } = useDateFormat();
  const names = rows.data?.names ?? {};
  const columns: TableColumnsType<AuditLogRow> = [
    {
      title: `When (${settings.timezone})`,
      dataIndex: 'at',
      render: (at: string) => formatDateTime(at),
      width: 170,
    },
    { title: 'Who', dataIndex: 'userName', render: (name: string | null) => name ?? '—' },
    ...(ownDomain === undefined
      ? [
          {
            title: 'Facility',
            dataIndex: 'facilityName',
            render: (name: string | null) => name ?? 'Plan-wide',
          },
        ]
      : []),
    { title: 'What', key: 'what', render: (_, row) => auditWhat(row, names, ownDomain) },
    { title: 'Why', dataIndex: 'reason' },
    {
      title: 'Changes',
      key: 'changes',
      render: (_, row) => <AuditChanges row={row} names={names} />,
    },
  ];
  return (
    <>
      {rows.isError ? <Alert type="error" showIcon title={rows.error.message} /> : null}
      <Table<AuditLogRow>
        rowKey="id"
        size="small"
        aria-label={label}
        loading={rows.isFetching}
        dataSource={rows.data?.data ?? []}
        {...(emptyText ? { locale: { emptyText } } : {})}
        pagination={serverPaging(
          page,
          rows.data?.total ?? 0,
          { one: 'entry', many: 'entries' },
          (pageNumber, pageLimit) => onPage({ pageNumber, pageLimit }),
        )}
        columns={columns}
      />
    </>
  );
}
