import { filterOperatorLabel } from '#core/labels/enum-labels.ts';
import {
  reportCellWords,
  reportColumnHeader,
  reportOptionLabel,
} from '#core/labels/report-cell.ts';
import type { TCell } from '#core/schemas/custom-reports.schemas.ts';
import { styleHeader } from '../master/master-export.ts';
import type { ResolvedReport } from './custom-reports.service.ts';

/**
 * One sheet with the report's columns in its order, and a second that says what it is: the
 * report, its source, its filters, who exported it and when, so a printed copy is traceable.
 */
export async function customReportXlsx(
  report: ResolvedReport,
  rows: readonly Record<string, TCell>[],
  meta: { exportedBy: string; exportedAt: Date; total: number },
): Promise<Buffer> {
  // exceljs takes half a second to load: only the calls that need it pay for it.
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  workbook.creator = 'Carryover';
  workbook.created = meta.exportedAt;
  const sheet = workbook.addWorksheet('Report');
  sheet.columns = report.columns.map((c) => ({
    header: reportColumnHeader(c),
    key: c.key,
    // A moment is a date cell the reader's Excel shows as a date, never an ISO string.
    ...(c.type === 'date' ? { style: { numFmt: 'yyyy-mm-dd hh:mm' } } : {}),
  }));
  for (const row of rows)
    sheet.addRow(
      report.columns.map((c) => {
        const value = row[c.key] ?? null;
        if (c.type === 'date' && typeof value === 'string') return new Date(value);
        // Numbers keep every digit in the cell; codes are written as words, as on the screen.
        return reportCellWords(report.source.key, c, value);
      }),
    );
  styleHeader(sheet);
  const about = workbook.addWorksheet('About');
  about.columns = [
    { header: 'Item', key: 'item' },
    { header: 'Value', key: 'value' },
  ];
  about.addRow(['Report', report.name]);
  about.addRow(['Source', report.source.label]);
  for (const f of report.filters) {
    about.addRow([
      'Filter',
      `${f.column.label} ${filterOperatorLabel(f.operator)} ${reportOptionLabel(f.column, String(f.value))}`,
    ]);
  }
  about.addRow(['Rows', meta.total]);
  about.addRow(['Exported by', meta.exportedBy]);
  // A date cell, not an ISO string: the reader's Excel shows it as a date and time.
  about.addRow(['Exported at (UTC)', meta.exportedAt]);
  about.getCell(`B${about.rowCount}`).numFmt = 'yyyy-mm-dd hh:mm:ss';
  styleHeader(about);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
