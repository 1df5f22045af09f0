import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { readWorkbook, type SheetRows } from './workbook-read.ts';

const plain = (sheet: SheetRows | undefined) =>
  sheet?.rows.map(({ row, cells }) => ({ row, ...Object.fromEntries(cells) }));

async function written(build: (wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  build(wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/**
 * A package written by hand, for what exceljs does not write: inline strings, prefixes… Its parts
 * are stored as they are unless `compression` says DEFLATE, as Excel and exceljs write them.
 */
async function handMade(
  sheetXml: string,
  workbookXml?: string,
  compression: 'STORE' | 'DEFLATE' = 'STORE',
): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="x/book.xml"/></Relationships>`,
  );
  zip.file(
    'x/_rels/book.xml.rels',
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="s1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="/x/sheets/one.xml"/><Relationship Id="st" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="../x/./styles.xml"/><Relationship Id="link" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.org" TargetMode="External"/></Relationships>`,
  );
  zip.file(
    'x/book.xml',
    workbookXml ??
      `<x:workbook xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:rel="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><x:workbookPr date1904="1"/><x:sheets><x:sheet name="Actives" sheetId="1" rel:id="s1"/></x:sheets></x:workbook>`,
  );
  zip.file(
    'x/styles.xml',
    `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="170" formatCode="[Red]0.00&quot; days&quot;"/></numFmts><cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs><cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="170"/></cellXfs></styleSheet>`,
  );
  zip.file(
    'x/sheets/one.xml',
    `<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>${sheetXml}</x:sheetData></x:worksheet>`,
  );
  return zip.generateAsync({ type: 'nodebuffer', compression });
}

/** The package with the first bytes of a part's deflated data made invalid (a reserved block type). */
function corrupted(buffer: Buffer, part: string): Buffer {
  const out = Buffer.from(buffer);
  const name = out.indexOf(part); // in the part's local header, which comes before its data
  const extra = out.readUInt16LE(name - 30 + 28);
  out.fill(0xff, name + part.length + extra, name + part.length + extra + 4);
  return out;
}

/** `count` rows of one cell each, the first being the header row. */
const numberRows = (count: number) =>
  Array.from(
    { length: count },
    (_, i) => `<x:row r="${i + 1}"><x:c r="A${i + 1}"><x:v>${i}</x:v></x:c></x:row>`,
  ).join('');

describe('readWorkbook', () => {
  it('reads each sheet of an exceljs workbook by header, with the values a user typed', async () => {
    const buffer = await written((wb) => {
      const actives = wb.addWorksheet('Actives');
      actives.addRow(['Name', '', 'Dose', 'Active?', 'Made']);
      actives.addRow([
        'Ibuprofen',
        'ignored: no header',
        200,
        true,
        new Date('2026-03-01T00:00:00Z'),
      ]);
      actives.addRow([]);
      actives.addRow(['  ', null, null, null, null]);
      actives.addRow([
        { richText: [{ text: 'Para' }, { text: 'cetamol', font: { bold: true } }] },
        null,
        { formula: 'B1*2', result: 1000 },
        false,
        null,
      ]);
      actives.getCell('E5').value = {
        formula: 'TODAY()',
        result: new Date('2026-11-29T12:00:00Z'),
      };
      actives.getCell('E5').numFmt = 'dd/mm/yyyy';
      actives.addRow([
        { text: 'Linked', hyperlink: 'https://example.org' },
        null,
        { formula: 'A1&""', result: 'text' },
      ]);
      const products = wb.addWorksheet('Products');
      products.addRow(['Name']);
      products.getCell('A7').value = 'Tablet';
    });
    const sheets = await readWorkbook(buffer);
    expect([...sheets.keys()]).toEqual(['Actives', 'Products']);
    expect(sheets.get('Actives')!.headers).toEqual(['Name', '', 'Dose', 'Active?', 'Made']);
    expect(plain(sheets.get('Actives'))).toEqual([
      { row: 2, Name: 'Ibuprofen', Dose: 200, 'Active?': true, Made: '2026-03-01T00:00:00.000Z' },
      {
        row: 5,
        Name: 'Paracetamol',
        Dose: 1000,
        'Active?': false,
        Made: '2026-11-29T12:00:00.000Z',
      },
      { row: 6, Name: 'Linked', Dose: 'text' },
    ]);
    expect(plain(sheets.get('Products'))).toEqual([{ row: 7, Name: 'Tablet' }]);
  });

  it('reads inline strings, prefixed elements, cells without references and the 1904 date system', async () => {
    const buffer = await handMade(
      `<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>Name</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t>Since</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t xml:space="preserve">Hold time </x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t>Check</x:t></x:is></x:c></x:row>` +
        `<x:row r="3"><x:c r="A3" t="inlineStr"><x:is><x:r><x:t>Aceto</x:t></x:r><x:r><x:t>phen &amp; co</x:t></x:r><x:rPh sb="0" eb="1"><x:t>ignored</x:t></x:rPh></x:is></x:c><x:c r="B3" s="1"><x:v>0</x:v></x:c><x:c r="C3" s="2"><x:v>2.5</x:v></x:c><x:c r="D3" t="e"><x:v>#N/A</x:v></x:c></x:row>` +
        `<x:row><x:c r="A4" t="str"><x:f>UPPER("b")</x:f><x:v>B</x:v></x:c><x:c r="B4"><x:f>NOW()</x:f></x:c><x:c r="C4" t="b"><x:v>1</x:v></x:c></x:row>`,
    );
    const sheet = (await readWorkbook(buffer)).get('Actives');
    expect(sheet?.headers).toEqual(['Name', 'Since', 'Hold time', 'Check']);
    expect(plain(sheet)).toEqual([
      {
        row: 3,
        Name: 'Acetophen & co',
        Since: '1904-01-01T00:00:00.000Z',
        'Hold time': 2.5,
        Check: '#N/A',
      },
      { row: 4, Name: 'B', 'Hold time': true },
    ]);
  });

  it('turns anything but a workbook into a validation error', async () => {
    const notAWorkbook = {
      errName: 'DataValidationError',
      errors: [
        { property: 'file', constraints: { xlsx: 'The file is not an Excel workbook (.xlsx)' } },
      ],
    };
    await expect(readWorkbook(Buffer.from('Name,Dose\nIbuprofen,200\n'))).rejects.toMatchObject(
      notAWorkbook,
    );
    const zip = new JSZip();
    zip.file('readme.txt', 'not a workbook');
    await expect(
      readWorkbook(await zip.generateAsync({ type: 'nodebuffer' })),
    ).rejects.toMatchObject(notAWorkbook);
    await expect(
      readWorkbook(await handMade('<x:row r="1"><x:c r="A1"><x:v>1</x:v></x:row>')),
    ).rejects.toMatchObject(notAWorkbook);
    const deflated = await handMade(numberRows(10), undefined, 'DEFLATE');
    expect((await readWorkbook(deflated)).get('Actives')?.rows).toHaveLength(9);
    await expect(readWorkbook(corrupted(deflated, 'x/sheets/one.xml'))).rejects.toMatchObject(
      notAWorkbook,
    );
  });

  it('stops reading a workbook of more rows than the cap', async () => {
    const buffer = await handMade(numberRows(301));
    expect((await readWorkbook(buffer, undefined, 300)).get('Actives')?.rows).toHaveLength(300);
    await expect(readWorkbook(buffer, undefined, 299)).rejects.toMatchObject({
      errName: 'DataValidationError',
      errors: [
        {
          property: 'file',
          constraints: {
            rows: 'The workbook holds more than 299 rows; split it into smaller workbooks',
          },
        },
      ],
    });
  });

  it.each(['STORE', 'DEFLATE'] as const)(
    'stops reading a workbook that unzips to more than the cap, a zip bomb (%s)',
    async (compression) => {
      const buffer = await handMade(numberRows(2000), undefined, compression);
      expect((await readWorkbook(buffer)).get('Actives')?.rows).toHaveLength(1999);
      await expect(readWorkbook(buffer, 2 * 1024 * 1024)).resolves.toBeDefined();
      await expect(readWorkbook(buffer, (1024 * 1024) / 64)).rejects.toMatchObject({
        errName: 'DataValidationError',
        errors: [{ property: 'file', constraints: { size: expect.stringContaining('split it') } }],
      });
    },
  );
});
