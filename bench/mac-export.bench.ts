// MAC matrix xlsx export of a 1,000-product facility, through the HTTP API of a production
// build (issue 5): time to the last byte, file size, and the server's resident memory while it
// streams (peak sampled every 20 ms, and its rise over the level before the export).
// Runs on PGlite, and on the PostgreSQL server at 127.0.0.1:5432 when one answers.
//   npm run bench:mac-export
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { startServerProcess } from './server-process.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const admin = { ADMIN_EMAIL: 'admin@example.com', ADMIN_PASSWORD: 'Admin#12345' };
const PRODUCTS = 1_000;
const EQUIPMENT = 1_000;
const LINES = 100;
/** The first run also pays for loading exceljs. */
const RUNS = Number(process.env.RUNS ?? 2);

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1_664_525 + 1_013_904_223) >>> 0) / 2 ** 32;
}

/** The facility as a master-data workbook: each line a train of 5–30 items and 10 products. */
async function facilityWorkbook(): Promise<Buffer> {
  const next = rng(11);
  const wb = new ExcelJS.Workbook();
  const actives = wb.addWorksheet('Actives');
  actives.addRow([
    'Name',
    'PDE/ADE',
    'PDE/ADE unit',
    'Minimum therapeutic dose',
    'Minimum therapeutic dose unit',
  ]);
  for (let i = 0; i < PRODUCTS; i++)
    actives.addRow([
      `Active ${i}`,
      Number((0.001 + next()).toFixed(4)),
      'mg',
      Number((1 + next() * 100).toFixed(2)),
      'mg',
    ]);
  const products = wb.addWorksheet('Products');
  products.addRow([
    'Name',
    'Largest daily dose',
    'Largest daily dose unit',
    'Minimum batch size',
    'Minimum batch size unit',
    'Actives',
  ]);
  for (let i = 0; i < PRODUCTS; i++)
    products.addRow([
      `Product ${i}`,
      Math.round(100 + next() * 900),
      'mg',
      Math.round(20 + next() * 300),
      'kg',
      `Active ${i} | 10 mg`,
    ]);
  const equipment = wb.addWorksheet('Equipment');
  equipment.addRow(['Name', 'Surface area', 'Surface area unit']);
  for (let i = 0; i < EQUIPMENT; i++)
    equipment.addRow([`Item ${i}`, Number((0.5 + next() * 20).toFixed(2)), 'sqm']);
  const productions = wb.addWorksheet('Productions');
  productions.addRow(['Name']);
  for (let l = 0; l < LINES; l++) productions.addRow([`Line ${l}`]);
  const matrix = wb.addWorksheet('Production-Equipment matrix');
  matrix.addRow(['Production', ...Array.from({ length: EQUIPMENT }, (_, i) => `Item ${i}`)]);
  for (let l = 0; l < LINES; l++) {
    const train = new Set(
      Array.from({ length: 5 + Math.floor(next() * 26) }, () => Math.floor(next() * EQUIPMENT)),
    );
    matrix.addRow([
      `Line ${l}`,
      ...Array.from({ length: EQUIPMENT }, (_, i) => (train.has(i) ? 'X' : null)),
    ]);
  }
  const mappings = wb.addWorksheet('mappings');
  mappings.addRow(['Production', 'Product']);
  for (let i = 0; i < PRODUCTS; i++) mappings.addRow([`Line ${i % LINES}`, `Product ${i}`]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function run(label: string, env: Record<string, string>, workbook: Buffer): Promise<void> {
  const server = await startServerProcess({ ...admin, SERVE_CLIENT: 'false', ...env }, 3320);
  try {
    const login = await fetch(`${server.url}/api/v2/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: admin.ADMIN_EMAIL, password: admin.ADMIN_PASSWORD }),
    });
    const { token, user } = (await login.json()) as { token: string; user: { planId: number } };
    const F = `${server.url}/api/v2/plans/${user.planId}/facilities/1`;
    const imported = await fetch(`${F}/master?fileName=bench.xlsx`, {
      method: 'POST',
      headers: { token, 'content-type': XLSX },
      body: new Uint8Array(workbook),
    });
    if (imported.status !== 200)
      throw new Error(`import failed: ${(await imported.text()).slice(0, 500)}`);
    const pairs = (
      (await (await fetch(`${F}/mac-matrix/pairs?pageLimit=1`, { headers: { token } })).json()) as {
        total: number;
      }
    ).total;

    for (let i = 0; i < RUNS; i++) {
      const before = server.rssMiB();
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, server.rssMiB())), 20);
      const started = performance.now();
      const res = await fetch(`${F}/mac-matrix/export`, { headers: { token } });
      const headers = performance.now() - started;
      const reader = res.body!.getReader();
      let first = 0;
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!first) first = performance.now() - started;
        bytes += value.length;
      }
      const total = performance.now() - started;
      clearInterval(sampler);
      peak = Math.max(peak, server.rssMiB());
      console.log(
        `${label}: xlsx export, ${PRODUCTS} products, ${pairs} pairs: headers ${headers.toFixed(0)} ms, first byte ${first.toFixed(0)} ms, total ${(total / 1000).toFixed(1)} s, ${(bytes / 1e6).toFixed(1)} MB; server RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MiB (+${(peak - before).toFixed(0)}) (run ${i + 1})`,
      );
    }
    console.log(
      `${label}: server peak RSS over the whole run (VmHWM, incl. the import) ${server.peakRssMiB().toFixed(0)} MiB`,
    );
  } finally {
    await server.stop();
  }
}

execFileSync('npm', ['run', '--silent', 'build:server'], { stdio: 'inherit' });
const workbook = await facilityWorkbook();
const dataDir = mkdtempSync(join(tmpdir(), 'carryover-bench-'));
if (process.env.SKIP_PGLITE !== '1') await run('PGlite', { DATA_DIR: dataDir }, workbook);
rmSync(dataDir, { recursive: true, force: true });

const base = 'postgres://postgres@127.0.0.1:5432';
const client = new pg.Client({ connectionString: `${base}/postgres` });
try {
  await client.connect();
} catch {
  console.log('PostgreSQL: no server at 127.0.0.1:5432, skipped');
  process.exit(0);
}
const name = `carryover_bench_${Date.now()}`;
await client.query(`create database ${name}`);
try {
  await run('PostgreSQL', { DATABASE_URL: `${base}/${name}` }, workbook);
} finally {
  await client.query(`drop database if exists ${name} with (force)`);
  await client.end();
}
