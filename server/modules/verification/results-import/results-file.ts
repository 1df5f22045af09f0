import { validationError } from '#core/errors/errors.ts';
import { MAX_IMPORT_ROWS } from '#core/schemas/results-import.schemas.ts';
import { readWorkbook, type SheetRows } from '#server/modules/master/workbook-read.ts';

/*
 * A laboratory's file of results as rows by column header: an xlsx workbook (its first sheet,
 * read by the master-data import's reader with its limits) or a CSV file (RFC 4180: quoted
 * fields, doubled quotes, line breaks inside quotes; comma, semicolon or tab as the header
 * row shows). Row numbers are the file's own (1 = the header row), as a person finds them.
 */

const isZip = (buffer: Buffer) => buffer.length >= 4 && buffer.readUInt32LE(0) === 0x04034b50;

/** The records of a CSV text, each a list of fields with the line it starts on. */
export function csvRecords(text: string): { line: number; fields: string[] }[] {
  const body = text.replace(/^\uFEFF/, '');
  const firstLine = body.slice(0, body.search(/\r?\n|$/));
  const delimiter = [',', ';', '\t'].reduce((best, d) =>
    firstLine.split(d).length > firstLine.split(best).length ? d : best,
  );
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  const endField = () => {
    fields.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    if (fields.some((f) => f.trim() !== '')) records.push({ line: start, fields });
    fields = [];
  };
  for (let i = 0; i < body.length; i += 1) {
    const ch = body[i]!;
    if (quoted) {
      if (ch === '"' && body[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else {
        if (ch === '\n') line += 1;
        field += ch;
      }
    } else if (ch === '"' && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (ch === delimiter) endField();
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && body[i + 1] === '\n') i += 1;
      endRecord();
      line += 1;
      start = line;
    } else field += ch;
  }
  if (field !== '' || fields.length > 0) endRecord();
  return records;
}

function csvRows(buffer: Buffer): SheetRows {
  const records = csvRecords(buffer.toString('utf8'));
  const [header, ...rest] = records;
  const headers = (header?.fields ?? []).map((h) => h.trim());
  return {
    headers,
    rows: rest.map(({ line, fields }) => ({
      row: line,
      cells: new Map(
        fields.flatMap((value, i) =>
          headers[i] && value.trim() !== '' ? [[headers[i]!, value.trim()] as const] : [],
        ),
      ),
    })),
  };
}

/** The rows of the file; an empty file, or one over the row limit, is a validation error. */
export async function readResultsFile(buffer: Buffer): Promise<SheetRows> {
  const fileProblem = (message: string) =>
    validationError([{ property: 'file', constraints: { file: message } }]);
  if (buffer.length === 0) throw fileProblem('The file is empty');
  let sheet: SheetRows | undefined;
  if (isZip(buffer)) {
    // A date cell is the laboratory's wall clock: the import reads it in the facility's zone.
    const sheets = await readWorkbook(buffer, undefined, MAX_IMPORT_ROWS, 'wallClock');
    sheet = [...sheets.values()][0];
  } else sheet = csvRows(buffer);
  if (!sheet || sheet.headers.every((h) => h === ''))
    throw fileProblem('The file has no header row');
  if (sheet.rows.length > MAX_IMPORT_ROWS)
    throw fileProblem(
      `The file holds more than ${MAX_IMPORT_ROWS.toLocaleString('en-US')} results; split it into smaller files`,
    );
  return sheet;
}
