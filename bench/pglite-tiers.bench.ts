// The embedded database with and without V8's optimizing tier for its WebAssembly
// (scripts/server-node-flags.mjs): a server start's peak resident memory, and the time of a
// query workload on an open database. `npm run bench:pglite-tiers` (ROUNDS=… changes the rounds).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { admin } from './bench-fixture.ts';
import { startServerProcess } from './server-process.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 5);

/** Run in a child process of its own flags: times a catalogue-heavy workload, in ms per round. */
async function workload(dataDir: string): Promise<void> {
  const { openPglite } = await import('#server/db/pglite-db.ts');
  const db = await openPglite({ dataDir });
  const times: number[] = [];
  for (let r = 0; r < ROUNDS; r += 1) {
    const started = performance.now();
    for (let i = 0; i < 200; i += 1)
      await db.query(
        `select c.relname, a.attname, format_type(a.atttypid, a.atttypmod)
           from pg_class c join pg_attribute a on a.attrelid = c.oid
          where c.relkind = 'r' and a.attnum > 0 order by 1, 2 limit 300`,
      );
    for (let i = 0; i < 200; i += 1)
      await db.query(`select count(*), sum(length(row_data::text)) from record_versions`);
    times.push(performance.now() - started);
  }
  await db.close();
  console.log(JSON.stringify(times));
}

if (process.argv[2] === 'workload') {
  await workload(process.argv[3]!);
} else {
  execFileSync('npm', ['run', '--silent', 'build:server'], { stdio: 'inherit' });
  const dataDir = mkdtempSync(join(tmpdir(), 'carryover-tiers-'));
  try {
    const env = { ...admin, SERVE_CLIENT: 'false', DATA_DIR: dataDir };
    await (await startServerProcess(env)).stop(); // first start: initdb and migrations
    for (const [label, flags] of [
      ['baseline compiler only (--liftoff-only)', ['--liftoff-only']],
      ['with the optimizing tier', []],
    ] as const) {
      const peaks: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const server = await startServerProcess(env, [...flags]);
        await new Promise((resolve) => setTimeout(resolve, 5_000));
        peaks.push(Math.round(server.peakRssMiB()));
        await server.stop();
      }
      const out = execFileSync(
        process.execPath,
        [...flags, '--import', 'tsx', fileURLToPath(import.meta.url), 'workload', dataDir],
        { encoding: 'utf8' },
      );
      const times = (JSON.parse(out.trim().split('\n').pop()!) as number[]).map(Math.round);
      console.log(
        `${label}: start peak RSS ${peaks.join(', ')} MiB; workload ms per round ${times.join(', ')}`,
      );
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
