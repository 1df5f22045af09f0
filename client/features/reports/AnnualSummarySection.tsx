import { DeleteOutlined, DownloadOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Flex, Form, Input, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import type { TCustomSection } from '#core/schemas/annual-summary.schemas.ts';
import type { TReport } from '#core/schemas/reports.schemas.ts';
import { serverPaging } from '#client/shared/paging.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { FacilityDateInput } from '#client/shared/facility-date-inputs.tsx';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { ReportStatusTag } from './ReportStatusTag.tsx';
import {
  downloadAnnualSummary,
  generateAnnualSummary,
  useAnnualSummaries,
} from './annual-summary-api.ts';
import { reportKeys } from '#client/shared/query-keys.ts';
import { nextAnnualPeriod } from './annual-period.ts';

interface AnnualValues {
  start: string;
  end: string;
  customSections?: TCustomSection[];
}

/** Asks for the period and the custom sections, and starts the annual summary's job. */
function AnnualSummaryDialog({
  period,
  onClose,
  onStarted,
}: {
  period: { start: string; end: string };
  onClose: () => void;
  onStarted: (report: TReport) => void;
}) {
  const scope = useFacilityScope();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<AnnualValues>();
  return (
    <ReasonDialog<AnnualValues>
      form={form}
      name="annual-summary"
      title="Annual summary"
      okText="Generate"
      width={720}
      initialValues={{ ...period, customSections: [] }}
      askReason={false}
      onSubmit={async (values) => {
        const started = await generateAnnualSummary(scope, {
          start: values.start,
          end: values.end,
          customSections: values.customSections ?? [],
        });
        void queryClient.invalidateQueries({ queryKey: reportKeys.all(scope.facilityId) });
        onStarted(started.report);
      }}
      onClose={onClose}
    >
      <Typography.Paragraph>
        The changes, studies, runs and results, trends and capability, overdue verifications and
        master-data changes of the period (whole UTC days), as the records stand now, then your
        sections in their order. Stored as a controlled document to be signed.
      </Typography.Paragraph>
      <Flex gap="middle">
        <Form.Item label="Start" name="start" rules={[{ required: true }]}>
          <FacilityDateInput aria-label="Start" />
        </Form.Item>
        <Form.Item label="End" name="end" rules={[{ required: true }]}>
          <FacilityDateInput aria-label="End" />
        </Form.Item>
      </Flex>
      <Form.List name="customSections">
        {(fields, { add, remove }) => (
          <Flex vertical gap="small">
            {fields.map((field, i) => (
              <Card
                key={field.key}
                size="small"
                title={`Section ${i + 1}`}
                extra={
                  <Button
                    size="small"
                    icon={<DeleteOutlined />}
                    aria-label={`Remove section ${i + 1}`}
                    onClick={() => remove(field.name)}
                  />
                }
              >
                <Form.Item label="Title" name={[field.name, 'title']} rules={[{ required: true }]}>
                  <Input aria-label={`Section ${i + 1} title`} maxLength={200} />
                </Form.Item>
                <Form.Item label="Text" name={[field.name, 'text']} initialValue="">
                  <Input.TextArea aria-label={`Section ${i + 1} text`} rows={4} />
                </Form.Item>
              </Card>
            ))}
            <div>
              <Button icon={<PlusOutlined />} onClick={() => add({ title: '', text: '' })}>
                Add section
              </Button>
            </div>
          </Flex>
        )}
      </Form.List>
    </ReasonDialog>
  );
}

function DownloadButton({ report }: { report: TReport }) {
  const scope = useFacilityScope();
  const [busy, setBusy] = useState(false);
  if (!report.completedAt) return null;
  return (
    <Button
      size="small"
      icon={<DownloadOutlined />}
      loading={busy}
      onClick={() => {
        setBusy(true);
        // Errors are shown by the http handler; the button only stops spinning.
        downloadAnnualSummary(scope, report)
          .catch(() => undefined)
          .finally(() => setBusy(false));
      }}
    >
      Download
    </Button>
  );
}

/** Annual summaries (spec §7 `annualSummary`): generate with a period and sections, list, download. */
export function AnnualSummarySection({ onOpen }: { onOpen: (report: TReport) => void }) {
  const { formatDateTime, formatDay } = useDateFormat();
  const permissions = usePermissions();
  const [page, setPage] = useState({ pageNumber: 1, pageLimit: 5 });
  const [generating, setGenerating] = useState(false);
  const list = useAnnualSummaries(page);
  const canGenerate = permissions.can('ReportDocument', 'Generate');
  const period = (r: TReport) =>
    `${formatDay(String(r.parameters.start))} to ${formatDay(String(r.parameters.end))}`;
  return (
    <Card
      title="Annual summaries"
      extra={
        canGenerate ? (
          <Button type="primary" onClick={() => setGenerating(true)}>
            Annual summary
          </Button>
        ) : null
      }
    >
      <Table<TReport>
        aria-label="Annual summaries"
        size="small"
        rowKey="id"
        loading={list.isPending}
        dataSource={list.data?.reports ?? []}
        locale={{ emptyText: 'No annual summary yet.' }}
        pagination={serverPaging(
          page,
          list.data?.total ?? 0,
          { one: 'annual summary', many: 'annual summaries' },
          (pageNumber, pageLimit) => setPage({ pageNumber, pageLimit }),
        )}
        columns={[
          {
            title: 'Number',
            dataIndex: 'number',
            render: (number: string, row) => (
              <Button type="link" size="small" onClick={() => onOpen(row)}>
                {number}
              </Button>
            ),
          },
          { title: 'Period', key: 'period', render: (_: unknown, row) => period(row) },
          {
            title: 'Sections',
            key: 'sections',
            render: (_: unknown, row) =>
              Array.isArray(row.parameters.customSections)
                ? row.parameters.customSections.length
                : 0,
          },
          {
            title: 'Status',
            key: 'status',
            render: (_: unknown, row) => <ReportStatusTag report={row} />,
          },
          {
            title: 'Generated at',
            dataIndex: 'generatedAt',
            render: (at: string) => formatDateTime(at),
          },
          {
            title: 'File',
            key: 'file',
            render: (_: unknown, row) => (
              <Space>
                <DownloadButton report={row} />
              </Space>
            ),
          },
        ]}
      />
      {generating ? (
        <AnnualSummaryDialog
          period={nextAnnualPeriod(
            (list.data?.reports ?? []).map((r) => String(r.parameters.end)),
            new Date().toISOString().slice(0, 10),
          )}
          onClose={() => setGenerating(false)}
          onStarted={(report) => {
            setGenerating(false);
            onOpen(report);
          }}
        />
      ) : null}
    </Card>
  );
}
