import ExcelJS from 'exceljs';

/** A downloaded workbook, read back for tests of the xlsx exports. */
export async function workbookOf(res: Response): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(await res.arrayBuffer());
  return wb;
}

/** A sheet's rows as plain arrays (index 0 = column A); none for a missing sheet. */
export function rowsOf(sheet: ExcelJS.Worksheet | undefined): unknown[][] {
  const rows: unknown[][] = [];
  sheet?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}
