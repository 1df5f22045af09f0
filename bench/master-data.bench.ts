// Master data at scale, through the HTTP API of a production build:
// - import of a 1,000-product facility workbook, then the MAC matrix API on it (time to first
//   byte and total; target under 2 s on PostgreSQL),
// - export and import of the demo facility's workbook,
// - import of a 10,000-row workbook (target under 30 s).
// Runs on PGlite, and on the PostgreSQL server at 127.0.0.1:5432 when one answers.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { startServerProcess } from './server-process.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const admin = { ADMIN_EMAIL: 'admin@example.com', ADMIN_PASSWORD: 'Admin#12345' };

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1_664_525 + 1_013_904_223) >>> 0) / 2 ** 32;
}

async function workbook(sizes: {
  actives: number;
  products: number;
  equipment: number;
  productions: number;
}) {
  const next = rng(7);
  const wb = new ExcelJS.Workbook();
  const actives = wb.addWorksheet('Actives');
  actives.addRow([
    'Name',
    'PDE/ADE',
    'PDE/ADE unit',
    'Minimum therapeutic dose',
    'Minimum therapeutic dose unit',
  ]);
  for (let i = 0; i < sizes.actives; i += 1)
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
  for (let i = 0; i < sizes.products; i += 1) {
    products.addRow([
      `Product ${i}`,
      Math.round(100 + next() * 900),
      'mg',
      Math.round(20 + next() * 300),
      'kg',
      `Active ${i % sizes.actives} | 10 mg`,
    ]);
  }
  const equipment = wb.addWorksheet('Equipment');
  equipment.addRow(['Name', 'Surface area', 'Surface area unit']);
  for (let i = 0; i < sizes.equipment; i += 1)
    equipment.addRow([`Item ${i}`, Number((0.5 + next() * 20).toFixed(2)), 'sqm']);
  if (sizes.productions > 0) {
    const productions = wb.addWorksheet('Productions');
    productions.addRow(['Name']);
    for (let l = 0; l < sizes.productions; l += 1) productions.addRow([`Line ${l}`]);
    // Each line: a train of 5–30 items and its share of the products.
    const matrix = wb.addWorksheet('Production-Equipment matrix');
    matrix.addRow([
      'Production',
      ...Array.from({ length: sizes.equipment }, (_, i) => `Item ${i}`),
    ]);
    for (let l = 0; l < sizes.productions; l += 1) {
      const train = new Set(
        Array.from({ length: 5 + Math.floor(next() * 26) }, () =>
          Math.floor(next() * sizes.equipment),
        ),
      );
      matrix.addRow([
        `Line ${l}`,
        ...Array.from({ length: sizes.equipment }, (_, i) => (train.has(i) ? 'X' : null)),
      ]);
    }
    const mappings = wb.addWorksheet('mappings');
    mappings.addRow(['Production', 'Product']);
    for (let i = 0; i < sizes.products; i += 1)
      mappings.addRow([`Line ${i % sizes.productions}`, `Product ${i}`]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function run(label: string, env: Record<string, string>): Promise<void> {
  const server = await startServerProcess({ ...admin, SERVE_CLIENT: 'false', ...env }, 3310);
  try {
    const login = await fetch(`${server.url}/api/v2/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: admin.ADMIN_EMAIL, password: admin.ADMIN_PASSWORD }),
    });
    const { token, user } = (await login.json()) as { token: string; user: { planId: number } };
    const F = (id: number) => `${server.url}/api/v2/plans/${user.planId}/facilities/${id}`;
    const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
      const t = performance.now();
      const r = await fn();
      return [r, (performance.now() - t) / 1000];
    };
    const upload = async (facility: number, buffer: Buffer) => {
      const res = await fetch(`${F(facility)}/master?fileName=bench.xlsx`, {
        method: 'POST',
        headers: { token, 'content-type': XLSX },
        body: new Uint8Array(buffer),
      });
      const body = (await res.json()) as Record<string, unknown>;
      if (res.status !== 200)
        throw new Error(`import failed: ${JSON.stringify(body).slice(0, 500)}`);
      return body;
    };

    const big = await workbook({
      actives: 1000,
      products: 1000,
      equipment: 1000,
      productions: 100,
    });
    const [imported, importSeconds] = await timed(() => upload(1, big));
    console.log(
      `${label}: import of a 1,000-product facility (${imported.rows} rows): ${importSeconds.toFixed(1)} s`,
    );

    for (let i = 0; i < 3; i += 1) {
      const started = performance.now();
      const res = await fetch(`${F(1)}/mac-matrix`, { headers: { token } });
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
      console.log(
        `${label}: MAC matrix API, 1,000 products: first byte ${first.toFixed(0)} ms, total ${total.toFixed(0)} ms, ${(bytes / 1e6).toFixed(1)} MB (run ${i + 1})`,
      );
    }
    const [, exportSeconds] = await timed(async () =>
      (await fetch(`${F(1)}/master`, { headers: { token } })).arrayBuffer(),
    );
    console.log(`${label}: export of the 1,000-product facility: ${exportSeconds.toFixed(1)} s`);

    const tenK = await workbook({ actives: 4000, products: 3000, equipment: 3000, productions: 0 });
    const [tenKReport, tenKSeconds] = await timed(() => upload(2, tenK));
    console.log(
      `${label}: import of a 10,000-row workbook (${tenKReport.rows} rows): ${tenKSeconds.toFixed(1)} s (target < 30 s); server RSS ${server.rssMiB().toFixed(0)} MiB`,
    );
  } finally {
    await server.stop();
  }
}

execFileSync('npm', ['run', '--silent', 'build:server'], { stdio: 'inherit' });
const dataDir = mkdtempSync(join(tmpdir(), 'carryover-bench-'));
if (process.env.SKIP_PGLITE !== '1') await run('PGlite', { DATA_DIR: dataDir });
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
  await run('PostgreSQL', { DATABASE_URL: `${base}/${name}` });
} finally {
  await client.query(`drop database if exists ${name} with (force)`);
  await client.end();
}
