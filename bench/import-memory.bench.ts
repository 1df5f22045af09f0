// Six workbook imports sent at once, each a workbook that unzips to just under the import's
// 256 MB cap, against a production build: the statuses (imports beyond IMPORT_CONCURRENCY get
// 429 with Retry-After) and the server's peak resident memory. Target (issue 29): under 800 MiB.
// Runs on PGlite (unless SKIP_PGLITE=1) and on the PostgreSQL server at 127.0.0.1:5432.
// `npm run bench:import-memory` (ROWS=… changes the workbook's rows; 1.58M rows ≈ 255 MiB)
import JSZip from 'jszip';
import { XLSX, admin, onEachDatabase, signIn } from './bench-fixture.ts';
import { startServerProcess } from './server-process.ts';
import { writeFileSync } from 'node:fs';

const ROWS = Number(process.env.ROWS ?? 1_580_000);

/** A one-sheet workbook of Actives rows, written by hand: exceljs would need gigabytes here. */
async function bigWorkbook(rows: number): Promise<{ buffer: Buffer; unzipped: number }> {
  const cell = (ref: string, text: string) =>
    `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
    `<row r="1">${cell('A1', 'Name')}${cell('B1', 'PDE/ADE')}${cell('C1', 'PDE/ADE unit')}</row>`,
  ];
  for (let r = 2; r <= rows + 1; r += 1)
    parts.push(
      `<row r="${r}">${cell(`A${r}`, `Active ${r}`)}<c r="B${r}"><v>${(r % 997) / 100 + 0.01}</v></c>${cell(`C${r}`, 'mg')}</row>`,
    );
  parts.push('</sheetData></worksheet>');
  const sheet = parts.join('');
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
  );
  zip.file(
    'xl/workbook.xml',
    '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Actives" sheetId="1" r:id="rId1"/></sheets></workbook>',
  );
  zip.file(
    'xl/_rels/workbook.xml.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
  );
  zip.file('xl/worksheets/sheet1.xml', sheet);
  const buffer = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
  return { buffer, unzipped: Buffer.byteLength(sheet) };
}

const { buffer, unzipped } = await bigWorkbook(ROWS);
console.log(
  `workbook: ${ROWS.toLocaleString('en')} rows, ${(unzipped / 1024 / 1024).toFixed(0)} MB unzipped, ${(buffer.length / 1024 / 1024).toFixed(1)} MB sent`,
);

await onEachDatabase(async (label, env) => {
  const serverEnv = { ...admin, SERVE_CLIENT: 'false', ...env };
  // PGlite's first start (initdb) has a peak of its own: the imports run after a restart.
  if (env.DATA_DIR) await (await startServerProcess(serverEnv)).stop();
  const server = await startServerProcess(serverEnv);
  try {
    const { token, facility } = await signIn(server.url);
    const atStart = server.rssMiB();
    writeFileSync(`/proc/${server.child.pid}/clear_refs`, '5'); // resets the peak (VmHWM)
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const res = await fetch(`${facility(1)}/master?fileName=big-${i}.xlsx`, {
          method: 'POST',
          headers: { token, 'content-type': XLSX },
          body: new Uint8Array(buffer),
        });
        const body = (await res.json()) as { message?: string; rows?: number };
        const retry = res.headers.get('retry-after');
        return `${res.status}${retry ? ` (Retry-After ${retry})` : ''} after ${((performance.now() - started) / 1000).toFixed(1)} s: ${body.message?.slice(0, 120) ?? `${body.rows} rows`}`;
      }),
    );
    for (const answer of answers) console.log(`${label}:   ${answer}`);
    console.log(
      `${label}: six imports at once: peak RSS ${server.peakRssMiB().toFixed(0)} MiB ` +
        `(${atStart.toFixed(0)} MiB before), target under 800 MiB`,
    );
  } finally {
    await server.stop();
  }
});
