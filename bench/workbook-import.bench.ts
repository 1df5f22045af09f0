// Import of a 10,000-row master-data workbook through the HTTP API of a production build,
// next to what exceljs alone takes to read the same file: the import's time, the ratio, and
// the server's peak resident memory (with PGlite that includes the database).
// Targets (issue 16): under 3 s on PostgreSQL, under 6 s on PGlite, under 400 MiB peak.
// Runs on PGlite, and on the PostgreSQL server at 127.0.0.1:5432 when one answers.
// `npm run bench:workbook-import`
import { writeFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import {
  admin,
  facilityWorkbook,
  onEachDatabase,
  signIn,
  TEN_THOUSAND_ROWS,
  uploadWorkbook,
} from './bench-fixture.ts';
import { startServerProcess } from './server-process.ts';

const tenK = await facilityWorkbook(TEN_THOUSAND_ROWS);

// The best of three reads, so a cold start of exceljs does not flatter the ratio.
let readSeconds = Infinity;
for (let i = 0; i < 3; i += 1) {
  const started = performance.now();
  await new ExcelJS.Workbook().xlsx.load(tenK as unknown as ArrayBuffer);
  readSeconds = Math.min(readSeconds, (performance.now() - started) / 1000);
}
console.log(`exceljs read of the 10,000-row workbook: ${readSeconds.toFixed(2)} s`);

await onEachDatabase(async (label, env) => {
  const server = await startServerProcess({ ...admin, SERVE_CLIENT: 'false', ...env }, 3311);
  try {
    const { token, facility } = await signIn(server.url);
    const atStart = server.peakRssMiB();
    // Writing 5 to clear_refs resets the peak (VmHWM), so the import's own peak is measured.
    writeFileSync(`/proc/${server.child.pid}/clear_refs`, '5');
    const { body, ms } = await uploadWorkbook(facility(1), token, tenK);
    const seconds = ms / 1000;
    console.log(
      `${label}: import of ${String(body.rows)} rows: ${seconds.toFixed(2)} s ` +
        `(${(seconds / readSeconds).toFixed(1)}× the exceljs read); server peak RSS ` +
        `${server.peakRssMiB().toFixed(0)} MiB during the import, ${atStart.toFixed(0)} MiB at start-up`,
    );
  } finally {
    await server.stop();
  }
});
