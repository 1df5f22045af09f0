import { DownloadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Drawer, Empty, Flex, Form, Select, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { productionsDef } from '#core/entities/defs/index.ts';
import {
  REPORT_KIND_INFO,
  type TReport,
  type TReportFormat,
  type TReportKind,
} from '#core/schemas/reports.schemas.ts';
import { serverPaging } from '#client/shared/paging.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { JobProgress } from '#client/shared/jobs/JobProgress.tsx';
import { ReferenceSelect } from '#client/shared/master-data/ReferenceSelect.tsx';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { ControlledRecordPanel } from '#client/shared/records/ControlledRecordPanel.tsx';
import {
  isRecordReportKind,
  RECORD_REPORT_PARAMS,
} from '#client/shared/reports/record-report-kinds.ts';
import { RecordReportPicker } from './RecordReportPicker.tsx';
import { ReportCompare } from './ReportCompare.tsx';
import { ReportStatusTag } from './ReportStatusTag.tsx';
import { AnnualSummarySection } from './AnnualSummarySection.tsx';
import {
  downloadReport,
  generateReport,
  useReportTags,
  useReports,
  type GenerateReportBody,
} from '#client/shared/reports/reports-api.ts';
import { isReportFailed, isReportPending } from '#client/shared/reports/report-state.ts';
import {
  AuditLogReportFields,
  auditLogReportBody,
  type AuditLogReportValues,
} from './AuditLogReportFields.tsx';
import { reportKeys } from '#client/shared/query-keys.ts';

const short = (hash: string | null | undefined) => (hash ? hash.slice(0, 12) : '—');

interface GenerateValues extends AuditLogReportValues {
  kind: TReportKind;
  recordId?: number;
  /** A run report's study, to choose the run from. */
  studyId?: number;
  productionId?: number;
  variant?: 'chemical' | 'nitrosamine';
}

/** Asks for a kind and its parameters, and starts the report's job. */
function GenerateDialog({
  onClose,
  onStarted,
}: {
  onClose: () => void;
  onStarted: (id: number) => void;
}) {
  const scope = useFacilityScope();
  const queryClient = useQueryClient();
  const tags = useReportTags();
  const [form] = Form.useForm<GenerateValues>();
  const kind = Form.useWatch('kind', form);
  return (
    <ReasonDialog<GenerateValues>
      form={form}
      name="generate-report"
      title="Generate a report"
      okText="Generate"
      initialValues={{ kind: 'worst-case-ranking', variant: 'chemical' }}
      askReason={false}
      onSubmit={async (values) => {
        const body: GenerateReportBody = isRecordReportKind(values.kind)
          ? ({
              kind: values.kind,
              [RECORD_REPORT_PARAMS[values.kind]]: values.recordId,
            } as GenerateReportBody)
          : values.kind === 'production-limits'
            ? {
                kind: 'production-limits',
                ...(values.productionId ? { productionId: values.productionId } : {}),
                variant: values.variant ?? 'chemical',
              }
            : values.kind === 'audit-log'
              ? auditLogReportBody(values)
              : ({ kind: values.kind } as GenerateReportBody);
        const started = await generateReport(scope, body);
        void queryClient.invalidateQueries({ queryKey: reportKeys.all(scope.facilityId) });
        onStarted(started.reportId);
      }}
      onClose={onClose}
    >
      <Typography.Paragraph>
        The report is generated in the background from the data and the limits in force now, then
        stored as a controlled document (version 1, Being Built) to be submitted and approved.
      </Typography.Paragraph>
      <Form.Item label="Kind" name="kind" rules={[{ required: true }]}>
        <Select
          aria-label="Kind"
          options={(tags.data?.tags ?? [])
            // The annual summary has its own dialog (AnnualSummarySection).
            .filter((t) => t.kind !== 'annual-summary')
            .map((t) => ({ value: t.kind, label: t.label }))}
        />
      </Form.Item>
      {kind === 'production-limits' ? (
        <>
          <Form.Item
            label="Production"
            name="productionId"
            extra="Leave empty for every production of the facility in one document."
          >
            <ReferenceSelect def={productionsDef} aria-label="Production" />
          </Form.Item>
          <Form.Item label="Policy" name="variant">
            <Select
              aria-label="Policy"
              options={[
                { value: 'chemical', label: 'Chemical (MAC matrix)' },
                { value: 'nitrosamine', label: 'Nitrosamine' },
              ]}
            />
          </Form.Item>
        </>
      ) : null}
      {isRecordReportKind(kind) ? <RecordReportPicker kind={kind} /> : null}
      {kind === 'audit-log' ? <AuditLogReportFields /> : null}
    </ReasonDialog>
  );
}

function DownloadButtons({ report }: { report: TReport }) {
  const scope = useFacilityScope();
  const [busy, setBusy] = useState<TReportFormat | null>(null);
  if (!report.completedAt) return null;
  return (
    <Space>
      {REPORT_KIND_INFO[report.kind].formats
        // A report may lack one of its kind's formats (a report of every production made
        // before issue 30 has no xlsx).
        .filter((format) => report.files.some((f) => f.format === format))
        .map((format) => (
          <Button
            key={format}
            size="small"
            icon={<DownloadOutlined />}
            loading={busy === format}
            onClick={() => {
              setBusy(format);
              // Errors are shown by the http handler; the button only stops spinning.
              downloadReport(scope, report, format)
                .catch(() => undefined)
                .finally(() => setBusy(null));
            }}
          >
            Download {format.toUpperCase()}
          </Button>
        ))}
    </Space>
  );
}

/** One report: its job while it runs, then its files, hashes and controlled-record actions. */
function ReportDrawer({ report, onClose }: { report: TReport; onClose: () => void }) {
  const scope = useFacilityScope();
  const queryClient = useQueryClient();
  const permissions = usePermissions();
  const { formatDateTime } = useDateFormat();
  return (
    <Drawer open width={720} title={`${report.number} ${report.title}`} onClose={onClose}>
      <Flex vertical gap="middle">
        {report.completedAt ? null : <JobProgress jobId={report.jobId} />}
        {report.error && isReportFailed(report) ? (
          <Typography.Text type="danger">{report.error}</Typography.Text>
        ) : null}
        {report.error && isReportPending(report) ? (
          <Typography.Text type="warning">
            An attempt failed ({report.error}); the job is tried again.
          </Typography.Text>
        ) : null}
        {report.completedAt ? (
          <>
            <ControlledRecordPanel
              documentType={report.documentType}
              documentId={report.id}
              title={`${report.number} ${report.title}`}
              state={report}
              canModify={permissions.can('ReportDocument', 'Modify')}
              onSigned={() =>
                void queryClient.invalidateQueries({ queryKey: reportKeys.all(scope.facilityId) })
              }
            />
            <DownloadButtons report={report} />
            <ReportCompare reportId={report.id} />
            <Typography.Paragraph>
              Generated {formatDateTime(report.generatedAt)} by {report.generatedBy ?? '—'} · data
              as of {report.asOf ? formatDateTime(report.asOf) : '—'} · limits snapshot{' '}
              {report.limitsSnapshotName ?? 'none'}
            </Typography.Paragraph>
            <Typography.Paragraph copyable={{ text: report.dataHash ?? '' }}>
              Data SHA-256: <Typography.Text code>{report.dataHash}</Typography.Text>
            </Typography.Paragraph>
            {report.files.map((f) => (
              <Typography.Paragraph key={f.format}>
                {f.format.toUpperCase()} as generated:{' '}
                <Typography.Text code>{f.sha256}</Typography.Text>
              </Typography.Paragraph>
            ))}
          </>
        ) : null}
      </Flex>
    </Drawer>
  );
}

/** Stored reports (spec §3 "Report kinds"): generate, follow, download and sign. */
export function ReportsPage() {
  const { formatDateTime } = useDateFormat();
  const permissions = usePermissions();
  const [page, setPage] = useState({ pageNumber: 1, pageLimit: 10 });
  const [generating, setGenerating] = useState(false);
  const [openId, setOpenId] = useState<number | null>(null);
  const list = useReports(page);
  const rows = list.data?.reports ?? [];
  // An annual summary opened from its own list may be on another page of this one.
  const [picked, setPicked] = useState<TReport | null>(null);
  const open = rows.find((r) => r.id === openId) ?? (picked?.id === openId ? picked : null);
  const canGenerate = permissions.can('ReportDocument', 'Generate');
  return (
    <Flex vertical gap="middle">
      <Typography.Title level={3}>Reports</Typography.Title>
      {canGenerate ? (
        <div>
          <Button type="primary" onClick={() => setGenerating(true)}>
            Generate report
          </Button>
        </div>
      ) : null}
      <AnnualSummarySection
        onOpen={(report) => {
          setPicked(report);
          setOpenId(report.id);
        }}
      />
      <Table<TReport>
        aria-label="Reports"
        size="small"
        rowKey="id"
        loading={list.isPending}
        dataSource={rows}
        locale={{
          emptyText: (
            <Empty
              description={
                canGenerate
                  ? 'No report yet. Generate one: it is stored with its data and hashes, to be approved like any controlled record.'
                  : 'No report yet.'
              }
            />
          ),
        }}
        pagination={serverPaging(
          page,
          list.data?.total ?? 0,
          { one: 'report', many: 'reports' },
          (pageNumber, pageLimit) => setPage({ pageNumber, pageLimit }),
        )}
        columns={[
          {
            title: 'Number',
            dataIndex: 'number',
            render: (number: string, row) => (
              <Button type="link" size="small" onClick={() => setOpenId(row.id)}>
                {number}
              </Button>
            ),
          },
          {
            title: 'Kind',
            dataIndex: 'kind',
            render: (k: TReportKind) => REPORT_KIND_INFO[k].label,
          },
          { title: 'Title', dataIndex: 'title', ellipsis: true },
          {
            title: 'Status',
            key: 'status',
            render: (_: unknown, row) => <ReportStatusTag report={row} />,
          },
          {
            title: 'Generated by',
            dataIndex: 'generatedBy',
            render: (n: string | null) => n ?? '—',
          },
          {
            title: 'Generated at',
            dataIndex: 'generatedAt',
            render: (at: string) => formatDateTime(at),
          },
          {
            title: 'Data hash',
            dataIndex: 'dataHash',
            render: (h: string | null) => <Typography.Text code>{short(h)}</Typography.Text>,
          },
          {
            title: 'Files',
            key: 'files',
            render: (_: unknown, row) => <DownloadButtons report={row} />,
          },
        ]}
      />
      {generating ? (
        <GenerateDialog
          onClose={() => setGenerating(false)}
          onStarted={(id) => {
            setGenerating(false);
            setOpenId(id);
          }}
        />
      ) : null}
      {open ? <ReportDrawer report={open} onClose={() => setOpenId(null)} /> : null}
    </Flex>
  );
}
