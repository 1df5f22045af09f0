import { Alert, Table } from 'antd';
import { useState } from 'react';
import { auditWhat } from '#core/audit/audit-format.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import { lowerLabel } from '#core/entities/labels.ts';
import { useDateFormat } from '../use-date-format.ts';
import { useFacilityScope } from '../master-data/use-facility-scope.ts';
import { AuditChanges } from './AuditChanges.tsx';
import type { AuditLogRow } from './audit-log-api.ts';
import { useRecordHistory } from './record-history-api.ts';

/**
 * A record's History tab: who changed what, when and why, newest first, read as the audit log
 * reads (one formatter for both). Hosted by every screen that shows a record.
 */
export function RecordHistory({ def, id }: { def: EntityDef; id: number }) {
  const scope = useFacilityScope();
  const { formatDateTime, settings } = useDateFormat();
  const [page, setPage] = useState({ pageNumber: 1, pageLimit: 10 });
  const history = useRecordHistory(scope, def, id, page);
  const names = history.data?.names ?? {};
  return (
    <>
      {history.isError ? <Alert type="error" showIcon title={history.error.message} /> : null}
      <Table<AuditLogRow>
        rowKey="id"
        size="small"
        aria-label={`History of the ${lowerLabel(def.label)}`}
        loading={history.isFetching}
        dataSource={history.data?.data ?? []}
        locale={{ emptyText: `Nothing has been recorded for this ${lowerLabel(def.label)} yet` }}
        pagination={{
          current: page.pageNumber,
          pageSize: page.pageLimit,
          total: history.data?.total ?? 0,
          showTotal: (total) => `${total} ${total === 1 ? 'entry' : 'entries'}`,
          onChange: (pageNumber, pageLimit) => setPage({ pageNumber, pageLimit }),
        }}
        columns={[
          {
            title: `When (${settings.timezone})`,
            dataIndex: 'at',
            render: (at: string) => formatDateTime(at),
            width: 160,
          },
          { title: 'Who', dataIndex: 'userName', render: (name: string | null) => name ?? '—' },
          {
            title: 'What',
            key: 'what',
            render: (_, row) => auditWhat(row, names, def.domain),
          },
          { title: 'Why', dataIndex: 'reason' },
          {
            title: 'Changes',
            key: 'changes',
            render: (_, row) => <AuditChanges row={row} names={names} />,
          },
        ]}
      />
    </>
  );
}
