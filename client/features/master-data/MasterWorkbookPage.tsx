import { Alert, Button, Card, Progress, Space, Statistic, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { isApiError } from '#client/api/api-error.ts';
import type { ImportReport } from './master-workbook-api.ts';
import { ImportProblemsTable } from '#client/shared/master-data/ImportProblemsTable.tsx';
import { problemsOf } from '#client/shared/master-data/workbook-problems.ts';
import type { WorkbookProblem } from '#client/shared/master-data/workbook-problems.ts';
import { useExportWorkbook, useImportWorkbook } from './use-master-workbook.ts';
import { usePermissions } from '#client/shared/permissions.ts';

/** Seconds since `running` turned true: an import of a large workbook takes a while. */
function useElapsed(running: boolean): number {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (!running) return undefined;
    const started = Date.now();
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 500);
    // Reset on the way out, so the next import counts from zero.
    return () => {
      clearInterval(timer);
      setSeconds(0);
    };
  }, [running]);
  return seconds;
}

/** Master data as one workbook (spec §7 {F}/master): download it, or upload an edited one. */
export function MasterWorkbookPage() {
  const permissions = usePermissions();
  const canExport = permissions.can('Master', 'BulkExport');
  const canImport = permissions.can('Master', 'BulkImport');
  const exporting = useExportWorkbook();
  const importing = useImportWorkbook();
  const [fileName, setFileName] = useState<string | null>(null);
  const elapsed = useElapsed(importing.isPending);

  const startImport = (file: File) => {
    setFileName(file.name);
    importing.mutate(file);
  };

  return (
    <Card>
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        Import / export
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        The facility&apos;s master data as one Excel workbook, a sheet per section. Export it, edit
        it, and import it again: rows are matched by name, new names are created and known ones
        updated. Every row is checked first; if any has a problem, nothing is imported.
      </Typography.Paragraph>
      <Space wrap style={{ marginBottom: 16 }}>
        {canExport ? (
          <Button loading={exporting.isPending} onClick={() => exporting.mutate()}>
            Export
          </Button>
        ) : null}
        {canImport ? (
          <Upload
            accept=".xlsx"
            maxCount={1}
            showUploadList={false}
            disabled={importing.isPending}
            // The file is sent by the import call itself, as the raw body, not by antd's uploader.
            beforeUpload={(file) => {
              startImport(file);
              return false;
            }}
          >
            <Button type="primary" loading={importing.isPending}>
              Import
            </Button>
          </Upload>
        ) : null}
      </Space>
      {exporting.isError ? (
        <Alert
          type="error"
          showIcon
          title="Could not export the workbook"
          description={exporting.error.message}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      {importing.isPending ? (
        <div role="status" style={{ marginBottom: 16 }}>
          <Typography.Text>
            Importing {fileName}… checking every row ({elapsed} s)
          </Typography.Text>
          <Progress percent={100} status="active" showInfo={false} />
        </div>
      ) : importing.isSuccess ? (
        <ImportDone fileName={fileName} report={importing.data} />
      ) : importing.isError ? (
        <ImportRefused fileName={fileName} error={importing.error} />
      ) : null}
    </Card>
  );
}

function ImportDone({ fileName, report }: { fileName: string | null; report: ImportReport }) {
  return (
    <div role="region" aria-label="Import result">
      <Alert
        type="success"
        showIcon
        title={`Imported ${fileName ?? 'the workbook'}: ${report.rows} rows`}
        style={{ marginBottom: 16 }}
      />
      <Space size="large">
        <Statistic title="Created" value={report.created} />
        <Statistic title="Updated" value={report.updated} />
        <Statistic title="Unchanged" value={report.unchanged} />
      </Space>
    </div>
  );
}

function ImportRefused({ fileName, error }: { fileName: string | null; error: Error }) {
  const problems: WorkbookProblem[] = isApiError(error) ? problemsOf(error.otherErrors) : [];
  return (
    <div role="region" aria-label="Import result">
      <Alert
        type="error"
        showIcon
        title="Nothing was imported"
        description={
          problems.length > 0
            ? `${fileName ?? 'The workbook'} has ${problems.length} problem${problems.length === 1 ? '' : 's'}. Correct them and import the workbook again.`
            : error.message
        }
        style={{ marginBottom: 16 }}
      />
      {problems.length > 0 ? <ImportProblemsTable problems={problems} /> : null}
    </div>
  );
}
