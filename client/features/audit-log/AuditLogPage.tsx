import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, notification, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { useSession } from '#client/session/use-session.ts';
import type { AuditLogFilters, AuditLogRow } from '#client/shared/audit-log/audit-log-api.ts';
import { exportAuditLogs, useAuditLogs } from '#client/shared/audit-log/audit-log-api.ts';
import { AuditLogFilterBar } from '#client/shared/audit-log/AuditLogFilters.tsx';
import { auditWhat } from '#core/audit/audit-format.ts';
import { AuditChanges } from '#client/shared/audit-log/AuditChanges.tsx';
import { useVerifyAuditTrail } from './audit-verify-api.ts';
import { VerifyIntegrityButton, VerifyIntegrityResult } from './VerifyIntegrity.tsx';

/** Who did what, when and why, with old and new values (21 CFR 11.10(e); spec §3, §7). */
export function AuditLogPage() {
  const { currentFacilityId } = useSession();
  const { formatDateTime, settings } = useDateFormat();
  const [filters, setFilters] = useState<AuditLogFilters>({});
  const [page, setPage] = useState({ pageNumber: 1, pageLimit: 10 });
  const [isExporting, setExporting] = useState(false);
  const logs = useAuditLogs(filters, page.pageNumber, page.pageLimit, currentFacilityId);
  const names = logs.data?.names ?? {};
  const verify = useVerifyAuditTrail();

  async function onExport(): Promise<void> {
    if (currentFacilityId === null) return;
    setExporting(true);
    try {
      await exportAuditLogs(filters, currentFacilityId);
    } catch (error) {
      notification.error({
        title: 'Export failed',
        description: error instanceof Error ? error.message : String(error),
      });
    } finally {
      setExporting(false);
    }
  }

  return (
    <Card>
      <Space style={{ width: '100%', justifyContent: 'space-between' }} align="start">
        <Typography.Title level={2}>Audit Log</Typography.Title>
        <Space>
          <VerifyIntegrityButton verify={verify} />
          <Button icon={<DownloadOutlined />} onClick={() => void onExport()} loading={isExporting}>
            Export
          </Button>
        </Space>
      </Space>
      <VerifyIntegrityResult verify={verify} />
      <AuditLogFilterBar
        onApply={(next) => {
          setFilters(next);
          setPage((current) => ({ ...current, pageNumber: 1 }));
        }}
      />
      {logs.isError ? <Alert type="error" title={logs.error.message} /> : null}
      <Table<AuditLogRow>
        rowKey="id"
        size="small"
        loading={logs.isFetching}
        dataSource={logs.data?.data ?? []}
        aria-label="Audit log"
        pagination={{
          current: page.pageNumber,
          pageSize: page.pageLimit,
          total: logs.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => `${total} entries`,
          onChange: (pageNumber, pageLimit) => setPage({ pageNumber, pageLimit }),
        }}
        columns={[
          {
            title: `When (${settings.timezone})`,
            dataIndex: 'at',
            render: (at: string) => formatDateTime(at),
            width: 170,
          },
          { title: 'Who', dataIndex: 'userName', render: (name: string | null) => name ?? '—' },
          {
            title: 'Facility',
            dataIndex: 'facilityName',
            render: (name: string | null) => name ?? 'Plan-wide',
          },
          {
            title: 'What',
            key: 'what',
            render: (_, row) => auditWhat(row, names),
          },
          { title: 'Why', dataIndex: 'reason' },
          {
            title: 'Changes',
            key: 'changes',
            render: (_, row) => <AuditChanges row={row} names={names} />,
          },
        ]}
      />
    </Card>
  );
}
