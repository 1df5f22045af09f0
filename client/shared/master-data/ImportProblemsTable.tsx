import { Table } from 'antd';
import type { WorkbookProblem } from './workbook-problems.ts';

/** A problem of an import: the sheet only where the file has several (a master workbook). */
export type ImportProblem = Omit<WorkbookProblem, 'sheet'> & { sheet?: string };

const COLUMNS = [
  { title: 'Row', dataIndex: 'row', key: 'row', width: 80 },
  { title: 'Column', dataIndex: 'column', key: 'column', width: 200 },
  { title: 'Problem', dataIndex: 'message', key: 'message' },
];
const SHEET = { title: 'Sheet', dataIndex: 'sheet', key: 'sheet', width: 180 };

/**
 * Every problem of an import by its place in the file, as the master-data workbook and the
 * laboratory's results import both list them (the server's `otherErrors`, read by problemsOf).
 */
export function ImportProblemsTable({ problems }: { problems: readonly ImportProblem[] }) {
  const hasSheets = problems.some((p) => p.sheet);
  return (
    <Table<ImportProblem & { key: number }>
      size="small"
      aria-label="Problems"
      columns={hasSheets ? [SHEET, ...COLUMNS] : COLUMNS}
      dataSource={problems.map((problem, key) => ({ ...problem, key }))}
      pagination={problems.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
    />
  );
}
