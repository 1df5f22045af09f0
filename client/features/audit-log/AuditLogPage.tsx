import { DownloadOutlined } from '@ant-design/icons';
import { Button, Card, notification, Space, Typography } from 'antd';
import { useState } from 'react';
import { useSession } from '#client/session/use-session.ts';
import type { AuditLogFilters } from '#client/shared/audit-log/audit-log-api.ts';
import { exportAuditLogs, useAuditLogs } from '#client/shared/audit-log/audit-log-api.ts';
import { AuditLogFilterBar } from '#client/shared/audit-log/AuditLogFilters.tsx';
import { AuditRowsTable, FIRST_AUDIT_PAGE } from '#client/shared/audit-log/AuditRowsTable.tsx';
import { useVerifyAuditTrail } from './audit-verify-api.ts';
import { VerifyIntegrityButton, VerifyIntegrityResult } from './VerifyIntegrity.tsx';

/** Who did what, when and why, with old and new values (21 CFR 11.10(e); spec §3, §7). */
export function AuditLogPage() {
  const { currentFacilityId } = useSession();
  const [filters, setFilters] = useState<AuditLogFilters>({});
  const [page, setPage] = useState(FIRST_AUDIT_PAGE);
  const [isExporting, setExporting] = useState(false);
  const logs = useAuditLogs(filters, page.pageNumber, page.pageLimit, currentFacilityId);
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
      <AuditRowsTable rows={logs} page={page} onPage={setPage} label="Audit log" />
    </Card>
  );
}
