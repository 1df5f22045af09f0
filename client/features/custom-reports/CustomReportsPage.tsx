import { DownloadOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Flex, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { customReportsDef } from '#core/entities/defs/custom-reports.def.ts';
import {
  COLUMN_LABELS,
  CUSTOM_REPORT_PER_PAGE,
  type TCell,
  type TReportColumn,
} from '#core/schemas/custom-reports.schemas.ts';
import { reportCellWords, reportColumnHeader } from '#core/labels/report-cell.ts';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { useNumberFormat } from '#client/shared/use-number-format.ts';
import { saveBlob } from '#client/api/http-client.ts';
import { serverPaging } from '#client/shared/paging.ts';
import { useReasonAction } from '#client/shared/reason/use-reason-action.tsx';
import { archiveEntity } from '#client/shared/master-data/entity-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import {
  customReportKeys,
  downloadCustomReport,
  useCustomReports,
  useReportData,
  useReportInfo,
  type CustomReport,
} from './custom-reports-api.ts';
import { ReportBuilder } from './ReportBuilder.tsx';

/** The saved report's rows, a page of 10 at a time (spec §9), and its download. */
function ReportPreview({ report }: { report: CustomReport }) {
  const scope = useFacilityScope();
  const [page, setPage] = useState({ pageNumber: 1, pageLimit: CUSTOM_REPORT_PER_PAGE });
  const data = useReportData(report, page.pageNumber, page.pageLimit);
  const [isDownloading, setDownloading] = useState(false);
  const numbers = useNumberFormat();
  const { formatDateTime } = useDateFormat();
  // Each cell as the rest of the app shows it (issue 30): numbers through the one formatter,
  // moments in the facility's zone and format, codes in words.
  const show = (column: TReportColumn, value: TCell): string => {
    if (value === null) return '—';
    if (typeof value === 'boolean') return value ? 'Yes' : 'No';
    if (typeof value === 'number') return numbers.number(value);
    if (column.type === 'date') return formatDateTime(value);
    return String(reportCellWords(report.source, column, value));
  };
  const columns = (data.data?.columns ?? []).map((c) => ({
    key: c.key,
    dataIndex: c.key,
    title: reportColumnHeader(c),
    render: (value: TCell) => show(c, value),
  }));
  return (
    <Card
      title={`Preview: ${report.name}`}
      extra={
        <Button
          icon={<DownloadOutlined />}
          loading={isDownloading}
          onClick={() => {
            setDownloading(true);
            // Errors are shown by the http handler; the button only stops spinning.
            downloadCustomReport(scope, report.id)
              .then(({ blob, fileName }) => saveBlob(blob, fileName))
              .catch(() => undefined)
              .finally(() => setDownloading(false));
          }}
        >
          Download xlsx
        </Button>
      }
    >
      <Table
        size="small"
        rowKey={(_row, index) => String(index)}
        loading={data.isFetching}
        columns={columns}
        dataSource={data.data?.data ?? []}
        scroll={{ x: true }}
        pagination={serverPaging(
          page,
          data.data?.total ?? 0,
          { one: 'row', many: 'rows' },
          (n, l) => setPage({ pageNumber: n, pageLimit: l }),
        )}
      />
    </Card>
  );
}

/** Reports → Custom reports: the saved reports, the builder, and a preview of one. */
export function CustomReportsPage() {
  const scope = useFacilityScope();
  const queryClient = useQueryClient();
  const permissions = usePermissions();
  const info = useReportInfo();
  const reports = useCustomReports();
  const [editing, setEditing] = useState<CustomReport | 'new' | null>(null);
  const [openId, setOpenId] = useState<number | null>(null);
  const open = reports.data?.find((r) => r.id === openId) ?? null;
  const sources = info.data?.sources ?? [];
  const labelOf = (key: string) => sources.find((s) => s.key === key)?.label ?? key;
  const archive = useReasonAction();
  const askArchive = (report: CustomReport) =>
    archive.ask({
      title: `Archive ${report.name}`,
      okText: 'Archive',
      danger: true,
      run: async (reason) => {
        await archiveEntity(scope, customReportsDef, report.id, reason);
        if (openId === report.id) setOpenId(null);
        await queryClient.invalidateQueries({ queryKey: customReportKeys.all(scope.facilityId) });
      },
    });
  return (
    <Flex vertical gap="middle">
      <Flex justify="space-between" align="center">
        <Typography.Title level={3} style={{ margin: 0 }}>
          Custom reports
        </Typography.Title>
        {permissions.can('ReportDocument', 'Generate') ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            New custom report
          </Button>
        ) : null}
      </Flex>
      <Table<CustomReport>
        rowKey="id"
        size="small"
        loading={reports.isPending}
        dataSource={reports.data ?? []}
        pagination={false}
        locale={{
          emptyText: (
            <Empty description="No custom report yet. Choose a source, its columns and filters with New custom report." />
          ),
        }}
        columns={[
          { title: 'Name', dataIndex: 'name', key: 'name' },
          { title: 'Source', key: 'source', render: (_v, r) => labelOf(r.source) },
          {
            title: 'Columns',
            key: 'columns',
            render: (_v, r) => r.columns.map((c) => COLUMN_LABELS[c.key] ?? c.key).join(', '),
          },
          { title: 'Filters', key: 'filters', render: (_v, r) => (r.filters ?? []).length },
          { title: 'Version', dataIndex: 'version', key: 'version' },
          {
            title: '',
            key: 'actions',
            render: (_v, r) => (
              <Space>
                <Button size="small" onClick={() => setOpenId(r.id)}>
                  Open
                </Button>
                {permissions.can('ReportDocument', 'Modify') ? (
                  <>
                    <Button
                      size="small"
                      icon={<EditOutlined />}
                      aria-label={`Edit ${r.name}`}
                      onClick={() => setEditing(r)}
                    />
                    <Button size="small" danger onClick={() => askArchive(r)}>
                      Archive
                    </Button>
                  </>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      {open ? <ReportPreview key={open.id} report={open} /> : null}
      {editing ? (
        <ReportBuilder
          sources={sources}
          report={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => setOpenId(saved.id)}
        />
      ) : null}
      {archive.modal}
    </Flex>
  );
}
