import type { SaxesTagPlain } from 'saxes';
import { validationError } from '#core/errors/errors.ts';
import type { Cell } from './workbook-columns.ts';
import {
  attribute,
  localName,
  MAX_INFLATED_BYTES,
  MAX_ROWS,
  readDateStyles,
  readSharedStrings,
  relationOf,
  serialToIso,
  UnreadableWorkbook,
  XlsxPackage,
} from './xlsx-package.ts';

/** A sheet's header row, and each of its rows with a filled cell, by column header. */
export interface SheetRows {
  headers: string[];
  rows: { row: number; cells: Map<string, Cell> }[];
}

/** What a sheet's cells refer to: the shared strings, the date styles, the date system. */
interface SheetContext {
  strings: string[];
  dateStyles: boolean[];
  date1904: boolean;
  /**
   * How a date cell reads: 'utc' an ISO instant (…Z), 'wallClock' the time as the sheet shows
   * it, without a zone ('2026-11-02T09:00:00'), for a reader that places it in a time zone.
   */
  dates: 'utc' | 'wallClock';
  /** Rows still allowed across the workbook's sheets. */
  rowsLeft: number;
}

const NOT_A_WORKBOOK = () =>
  validationError([
    { property: 'file', constraints: { xlsx: 'The file is not an Excel workbook (.xlsx)' } },
  ]);

/** The 1-based column of a reference such as `AB12`, or undefined when it has none. */
function columnOf(ref: string | undefined): number | undefined {
  if (!ref) return undefined;
  let col = 0;
  for (let i = 0; i < ref.length; i += 1) {
    const code = ref.charCodeAt(i) & ~32; // upper case
    if (code < 65 || code > 90) break;
    col = col * 26 + (code - 64);
  }
  return col || undefined;
}

/** A cell's value from its type (`t`), style and the text of its `v` or inline string. */
function cellValue(type: string, style: number, text: string, ctx: SheetContext): Cell {
  switch (type) {
    case 's':
      return ctx.strings[Number(text)] ?? null;
    case 'str':
    case 'inlineStr':
    case 'e':
      return text;
    case 'b':
      return Number(text) !== 0;
    default: {
      if (text.trim() === '') return null;
      const n = Number(text);
      if (!Number.isFinite(n)) return text;
      if (!ctx.dateStyles[style]) return n;
      const iso = serialToIso(n, ctx.date1904);
      // A serial holds no zone: the instant of serialToIso is the wall clock read as UTC.
      return ctx.dates === 'wallClock' ? iso.slice(0, 19) : iso;
    }
  }
}

/** Reads one worksheet's cells, row by row, keeping rows with a filled cell. */
async function readSheet(pkg: XlsxPackage, path: string, ctx: SheetContext): Promise<SheetRows> {
  const headers: string[] = [];
  const rows: SheetRows['rows'] = [];
  let rowNumber = 0;
  let rowCells: [number, Cell][] = [];
  let col = 0;
  let type = '';
  let style = 0;
  let text = '';
  let inValue = false;
  let hasValue = false;
  let phonetic = 0;

  const endRow = () => {
    if (rowNumber === 1) {
      for (const [c, value] of rowCells) headers[c - 1] = String(value ?? '').trim();
      for (let i = 0; i < headers.length; i += 1) headers[i] ??= '';
      return;
    }
    const cells = new Map<string, Cell>();
    for (const [c, value] of rowCells) {
      const header = headers[c - 1];
      if (header && value !== null && String(value).trim() !== '') cells.set(header, value);
    }
    if (cells.size === 0) return;
    ctx.rowsLeft -= 1;
    if (ctx.rowsLeft < 0) throw new UnreadableWorkbook('rows');
    rows.push({ row: rowNumber, cells });
  };

  await pkg.readXml(path, {
    open(tag: SaxesTagPlain) {
      switch (localName(tag.name)) {
        case 'row':
          rowNumber = Number(attribute(tag, 'r') ?? rowNumber + 1);
          rowCells = [];
          col = 0;
          break;
        case 'c':
          col = columnOf(attribute(tag, 'r')) ?? col + 1;
          type = attribute(tag, 't') ?? 'n';
          style = Number(attribute(tag, 's') ?? 0);
          text = '';
          hasValue = false;
          break;
        case 'v':
          inValue = true;
          hasValue = true;
          break;
        case 't':
          // The text of an inline string: rich text runs are joined, phonetic guides left out.
          if (type === 'inlineStr' && phonetic === 0) {
            inValue = true;
            hasValue = true;
          }
          break;
        case 'rPh':
          phonetic += 1;
          break;
      }
    },
    text(t) {
      if (inValue) text += t;
    },
    close(name) {
      switch (localName(name)) {
        case 'v':
        case 't':
          inValue = false;
          break;
        case 'rPh':
          phonetic -= 1;
          break;
        case 'c':
          if (hasValue) rowCells.push([col, cellValue(type, style, text, ctx)]);
          break;
        case 'row':
          endRow();
          break;
      }
    },
  });
  return { headers, rows };
}

/** Every sheet of the workbook by name; a file that is not a workbook is a validation error. */
export async function readWorkbook(
  buffer: Buffer,
  maxInflated = MAX_INFLATED_BYTES,
  maxRows = MAX_ROWS,
  dates: SheetContext['dates'] = 'utc',
): Promise<Map<string, SheetRows>> {
  try {
    const pkg = await XlsxPackage.open(buffer, maxInflated);
    const workbookPath = relationOf(await pkg.relationships(''), 'officeDocument');
    if (!workbookPath) throw new UnreadableWorkbook('format');
    const rels = await pkg.relationships(workbookPath);
    const sheetList: { name: string; path: string }[] = [];
    let date1904 = false;
    await pkg.readXml(workbookPath, {
      open(tag) {
        const name = localName(tag.name);
        if (name === 'workbookPr') date1904 = /^(1|true)$/.test(attribute(tag, 'date1904') ?? '');
        if (name !== 'sheet') return;
        const rel = rels.get(attribute(tag, 'id') ?? '');
        if (rel?.type.endsWith('/worksheet'))
          sheetList.push({ name: attribute(tag, 'name') ?? '', path: rel.target });
      },
    });
    const stringsPath = relationOf(rels, 'sharedStrings');
    const stylesPath = relationOf(rels, 'styles');
    const ctx: SheetContext = {
      strings: stringsPath ? await readSharedStrings(pkg, stringsPath) : [],
      dateStyles: stylesPath ? await readDateStyles(pkg, stylesPath) : [],
      date1904,
      dates,
      rowsLeft: maxRows,
    };
    const sheets = new Map<string, SheetRows>();
    for (const { name, path } of sheetList) sheets.set(name, await readSheet(pkg, path, ctx));
    return sheets;
  } catch (error) {
    if (!(error instanceof UnreadableWorkbook)) throw error;
    if (error.reason === 'size')
      throw validationError([
        {
          property: 'file',
          constraints: {
            size: `The workbook holds more than ${Math.round(maxInflated / 1024 / 1024)} MB of data once unzipped; split it into smaller workbooks`,
          },
        },
      ]);
    if (error.reason === 'rows')
      throw validationError([
        {
          property: 'file',
          constraints: {
            rows: `The workbook holds more than ${maxRows.toLocaleString('en-US')} rows; split it into smaller workbooks`,
          },
        },
      ]);
    throw NOT_A_WORKBOOK();
  }
}
