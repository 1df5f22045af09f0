// Import of a 10,000-row master-data workbook through the HTTP API of a production build,
// next to what exceljs alone takes to read the same file: the import's time, the ratio, and
// the server's peak resident memory (with PGlite that includes the database).
// Targets (issue 16): under 3 s on PostgreSQL, under 6 s on PGlite, under 400 MiB peak.
// Then what anchoring adds (issue 28): the chains are anchored every second during the import
// (the worst case), and after it the anchor file, one anchor and verify are timed.
// Runs on PGlite, and on the PostgreSQL server at 127.0.0.1:5432 when one answers.
// `npm run bench:workbook-import`
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import pg from 'pg';
import {
  admin,
  anchorFigures,
  facilityWorkbook,
  onEachDatabase,
  signIn,
  TEN_THOUSAND_ROWS,
  uploadWorkbook,
} from './bench-fixture.ts';
import { startServerProcess } from './server-process.ts';

const tenK = await facilityWorkbook(TEN_THOUSAND_ROWS);

// The best of three reads, so a cold start of exceljs does not flatter the ratio; its CPU too
// (user + system of this process), the anchor of the import's CPU (issue 34).
let readSeconds = Infinity;
let readCpuSeconds = Infinity;
for (let i = 0; i < 3; i += 1) {
  const started = performance.now();
  const cpu = process.cpuUsage();
  await new ExcelJS.Workbook().xlsx.load(tenK as unknown as ArrayBuffer);
  const used = process.cpuUsage(cpu);
  readCpuSeconds = Math.min(readCpuSeconds, (used.user + used.system) / 1e6);
  readSeconds = Math.min(readSeconds, (performance.now() - started) / 1000);
}
console.log(
  `exceljs read of the 10,000-row workbook: ${readSeconds.toFixed(2)} s, CPU ${readCpuSeconds.toFixed(2)} s`,
);

/** CPU seconds (user + system) the process has used: on a busy machine, steadier than time. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime, fields 14 and 15 of proc(5), in clock ticks of 1/100 s.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds of the PostgreSQL backends serving the bench's database so far, by pid (a
 * backend started during the import counts from zero); none on PGlite, where it is in-process.
 */
async function backendCpu(url: string | undefined): Promise<Map<number, number>> {
  if (!url) return new Map();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    return new Map(rows.map((r) => [r.pid, cpuSeconds(r.pid)]));
  } finally {
    await client.end();
  }
}

await onEachDatabase(async (label, env) => {
  const anchors = mkdtempSync(join(tmpdir(), 'carryover-bench-anchors-'));
  const serverEnv = {
    ...admin,
    SERVE_CLIENT: 'false',
    AUDIT_ANCHOR_DIR: anchors,
    AUDIT_ANCHOR_INTERVAL_SECONDS: '1',
    ...env,
  };
  // PGlite's first start runs initdb, which alone peaks near 900 MiB (its memory is garbage
  // afterwards, but the process keeps it until a collection): the import runs after a restart,
  // as it does on a site that has run before.
  if (env.DATA_DIR) {
    const first = await startServerProcess(serverEnv);
    console.log(`${label}: first start (initdb) peak RSS ${first.peakRssMiB().toFixed(0)} MiB`);
    await first.stop();
  }
  const server = await startServerProcess(serverEnv);
  try {
    const { token, facility } = await signIn(server.url);
    const atStart = server.peakRssMiB();
    // Writing 5 to clear_refs resets the peak (VmHWM), so the import's own peak is measured.
    writeFileSync(`/proc/${server.child.pid}/clear_refs`, '5');
    const cpu = cpuSeconds(server.child.pid!);
    const backendsBefore = await backendCpu(env.DATABASE_URL);
    const { body, ms } = await uploadWorkbook(facility(1), token, tenK);
    const serverCpu = cpuSeconds(server.child.pid!) - cpu;
    let databaseCpu = 0;
    for (const [pid, after] of await backendCpu(env.DATABASE_URL))
      databaseCpu += after - (backendsBefore.get(pid) ?? 0);
    const seconds = ms / 1000;
    console.log(
      `${label}: import of ${String(body.rows)} rows: ${seconds.toFixed(2)} s ` +
        `(${(seconds / readSeconds).toFixed(1)}× the exceljs read); CPU of the app's process ` +
        `${serverCpu.toFixed(2)} s${env.DATABASE_URL ? `, of its PostgreSQL backends ${databaseCpu.toFixed(2)} s` : ''}; its peak RSS ${server.peakRssMiB().toFixed(0)} MiB during ` +
        `the import, ${atStart.toFixed(0)} MiB at start-up`,
    );
    console.log(
      `${label}: import CPU ${(serverCpu / readCpuSeconds).toFixed(1)}× the exceljs read's ` +
        `(target ≤ ${env.DATABASE_URL ? 3 : 5}×)` +
        (env.DATABASE_URL
          ? `; with its PostgreSQL backends ${((serverCpu + databaseCpu) / readCpuSeconds).toFixed(1)}×`
          : ''),
    );
    await anchorFigures(label, server.url, token, anchors);
  } finally {
    await server.stop();
    rmSync(anchors, { recursive: true, force: true });
  }
});
