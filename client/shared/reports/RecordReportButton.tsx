import { FileTextOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Flex, Modal, Typography } from 'antd';
import { useState } from 'react';
import { REPORT_KIND_INFO } from '#core/schemas/reports.schemas.ts';
import { JobProgress } from '../jobs/JobProgress.tsx';
import { useFacilityScope } from '../master-data/use-facility-scope.ts';
import { usePermissions } from '../permissions.ts';
import { RECORD_REPORT_PARAMS, type RecordReportKind } from './record-report-kinds.ts';
import { reportKeys } from '#client/shared/query-keys.ts';
import { downloadReport, generateReport, useReport } from './reports-api.ts';

/**
 * "Report" on a record's screen: starts the record's report as a job, follows its progress and
 * offers the PDF once stored (the report is then in Reports, to be signed).
 */
export function RecordReportButton({ kind, id }: { kind: RecordReportKind; id: number }) {
  const scope = useFacilityScope();
  const queryClient = useQueryClient();
  const permissions = usePermissions();
  const [reportId, setReportId] = useState<number | null>(null);
  const [starting, setStarting] = useState(false);
  const followed = useReport(reportId);
  const report = followed.data?.report;
  if (!permissions.can('ReportDocument', 'Generate')) return null;
  const start = () => {
    setStarting(true);
    const body = { kind, [RECORD_REPORT_PARAMS[kind]]: id } as Parameters<typeof generateReport>[1];
    generateReport(scope, body)
      .then((started) => {
        setReportId(started.reportId);
        void queryClient.invalidateQueries({ queryKey: reportKeys.all(scope.facilityId) });
      })
      // Errors are shown by the http handler.
      .catch(() => undefined)
      .finally(() => setStarting(false));
  };
  return (
    <>
      <Button icon={<FileTextOutlined />} loading={starting} onClick={start}>
        Report
      </Button>
      {reportId !== null ? (
        <Modal
          open
          title={REPORT_KIND_INFO[kind].label}
          onCancel={() => setReportId(null)}
          footer={<Button onClick={() => setReportId(null)}>Close</Button>}
        >
          <Flex vertical gap="middle">
            {report ? (
              <Typography.Text>
                {report.number} {report.title}
              </Typography.Text>
            ) : null}
            {report?.completedAt ? null : <JobProgress jobId={report?.jobId} />}
            {report?.error ? <Typography.Text type="danger">{report.error}</Typography.Text> : null}
            {report?.completedAt ? (
              <>
                <Typography.Paragraph>
                  Stored as a controlled document (version 1, Being Built); submit and approve it in
                  Reports.
                </Typography.Paragraph>
                <div>
                  <Button
                    type="primary"
                    onClick={() => void downloadReport(scope, report, 'pdf').catch(() => undefined)}
                  >
                    Download PDF
                  </Button>
                </div>
              </>
            ) : null}
          </Flex>
        </Modal>
      ) : null}
    </>
  );
}
