import { excelNumberFormat } from '#core/units/format-number.ts';

export type XlsxCell = string | number | boolean | null;

/**
 * A report's workbook from its sheets' rows (the first row of each is its header). Each number
 * keeps its full value and shows, through its cell's number format, the text the screens and
 * the PDF show at the facility's significant digits.
 */
export async function sheetsXlsx(
  sheets: { name: string; rows: XlsxCell[][] }[],
  digits?: number,
): Promise<Buffer> {
  // exceljs is loaded when a workbook is made, not with the server (it takes a second to load).
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  book.creator = 'Carryover';
  for (const { name, rows } of sheets) {
    const sheet = book.addWorksheet(name);
    for (const row of rows) {
      const added = sheet.addRow(row);
      row.forEach((value, i) => {
        if (typeof value === 'number')
          added.getCell(i + 1).numFmt = excelNumberFormat(value, digits);
      });
    }
    sheet.getRow(1).font = { bold: true };
    sheet.views = [{ state: 'frozen', ySplit: 1 }];
  }
  // A fixed date makes the same data give the same workbook.
  book.created = new Date(0);
  book.modified = new Date(0);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** A number the engine could not give (NaN, Infinity) is an empty cell, never 'NaN'. */
export const cellNumber = (value: number | null | undefined): number | null =>
  value === null || value === undefined || !Number.isFinite(value) ? null : value;
