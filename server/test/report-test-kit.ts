import ExcelJS from 'exceljs';
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { FacilityTestFile, TestBody } from '#server/test/facility-test-file.ts';
import { forbiddenTextReport } from '#core/labels/forbidden-text.ts';
import { readPdfText } from './read-pdf-text.ts';

/** What report tests do: generate a report and wait for its job, read its files back. */
export function reportKit(t: FacilityTestFile, F: () => string = () => t.F) {
  const sha = (bytes: ArrayBuffer) =>
    createHash('sha256').update(new Uint8Array(bytes)).digest('hex');

  const download = (path: string, as = t.token) =>
    fetch(`${t.server.url}${F()}${path}`, { headers: { token: as } });

  async function poll(id: number): Promise<TestBody> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await t.call('GET', `${F()}/reports/${id}`);
      expect(res.status).toBe(200);
      const report = res.body.report as TestBody;
      if (report.completedAt || report.error || report.progress?.state === 'failed') return report;
      if (Date.now() > deadline) throw new Error(`report ${id} still ${report.progress?.state}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** POST reports/generate_report, then the report once its job finished. */
  async function generate(body: unknown): Promise<TestBody> {
    const res = await t.call('POST', `${F()}/reports/generate_report`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.jobId).toBe(res.body.report.jobId);
    expect(res.body.reportId).toBe(res.body.report.id);
    return poll(res.body.reportId as number);
  }

  /** The PDF at `path` with its text (whitespace folded), page count and SHA-256. */
  async function pdfOf(path: string, as = t.token, base = F()) {
    const res = await fetch(`${t.server.url}${base}${path}`, { headers: { token: as } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const bytes = await res.arrayBuffer();
    // readPdfText checks the words (issue 30).
    const { text, pages } = await readPdfText(new Uint8Array(bytes));
    return { text: text.replace(/\s+/g, ' '), pages, sha256: sha(bytes), res };
  }

  /**
   * Each sheet's rows as arrays of cell values (the first cell first), and beside them each
   * cell's number format (what Excel shows the value as).
   */
  async function xlsxOf(path: string) {
    const res = await download(path);
    expect(res.status).toBe(200);
    const bytes = await res.arrayBuffer();
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes);
    const sheets = new Map<string, unknown[][]>();
    const formats = new Map<string, (string | undefined)[][]>();
    book.eachSheet((sheet) => {
      const rows: unknown[][] = [];
      const numFmts: (string | undefined)[][] = [];
      sheet.eachRow((row) => {
        rows.push((row.values as unknown[]).slice(1));
        const cells: (string | undefined)[] = [];
        row.eachCell({ includeEmpty: true }, (cell, column) => {
          cells[column - 1] = cell.numFmt;
        });
        numFmts.push(cells);
      });
      sheets.set(sheet.name, rows);
      formats.set(sheet.name, numFmts);
    });
    const cells = [...sheets.entries()].flatMap(([name, rows]) =>
      rows.flat().map((cell) => ({ name, text: cellText(cell) })),
    );
    expect(
      cells
        .map((cell) => forbiddenTextReport(`${path} ${cell.name}`, cell.text))
        .filter(Boolean)
        .join('\n'),
    ).toBe('');
    return { sheets, formats, sha256: sha(bytes), res };
  }

  return { sha, download, poll, generate, pdfOf, xlsxOf };
}

/** What a cell shows as text: strings and rich text; numbers, dates and formulas show no words. */
function cellText(cell: unknown): string {
  if (typeof cell === 'string') return cell;
  const rich = (cell as { richText?: { text: string }[] } | null)?.richText;
  return Array.isArray(rich) ? rich.map((part) => part.text).join('') : '';
}
