import type ExcelJS from 'exceljs';
import { validationError } from '#core/errors/errors.ts';
import type { Cell } from './workbook-columns.ts';

/** A sheet's header row, and each of its rows with a filled cell, by column header. */
export interface SheetRows {
  headers: string[];
  rows: { row: number; cells: Map<string, Cell> }[];
}

function cellValue(value: ExcelJS.CellValue): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    if ('result' in value) return cellValue(value.result as ExcelJS.CellValue);
    if ('richText' in value) return value.richText.map((t) => t.text).join('');
    if ('text' in value) return String(value.text);
  }
  return String(value);
}

/** Every sheet of the workbook by name; a file that is not a workbook is a validation error. */
export async function readWorkbook(buffer: Buffer): Promise<Map<string, SheetRows>> {
  // exceljs takes half a second to load: only the calls that need it pay for it.
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  try {
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch {
    throw validationError([
      { property: 'file', constraints: { xlsx: 'The file is not an Excel workbook (.xlsx)' } },
    ]);
  }
  const sheets = new Map<string, SheetRows>();
  workbook.eachSheet((ws) => {
    const headers: string[] = [];
    ws.getRow(1).eachCell({ includeEmpty: true }, (cell, col) => {
      headers[col - 1] = String(cellValue(cell.value) ?? '').trim();
    });
    const rows: SheetRows['rows'] = [];
    ws.eachRow((row, number) => {
      if (number === 1) return;
      const cells = new Map<string, Cell>();
      let filled = false;
      row.eachCell({ includeEmpty: false }, (cell, col) => {
        const header = headers[col - 1];
        const value = cellValue(cell.value);
        if (header && value !== null && String(value).trim() !== '') {
          cells.set(header, value);
          filled = true;
        }
      });
      if (filled) rows.push({ row: number, cells });
    });
    sheets.set(ws.name, { headers, rows });
  });
  return sheets;
}
