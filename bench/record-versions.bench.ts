// Kept versions of records (record_versions, server/records/README.md):
// - the versions read of a record with 200 versions, over HTTP (p50/p99),
// - the detail read of that record as of a past moment (asOf) next to the live one,
// - what the trigger adds to an update: the same UPDATE timed with the trigger on and off.
// Runs on PGlite, and on the PostgreSQL server at 127.0.0.1:5432 (or BENCH_PG_URL) when one
// answers. `npm run bench:versions`
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import type { Db } from '#server/db/db.ts';
import { migrate } from '#server/db/migrate.ts';
import { openPglite } from '#server/db/pglite-db.ts';
import { openPostgres } from '#server/db/postgres-db.ts';
import { seedFirstStart } from '#server/db/seed.ts';
import { admin, signIn } from './bench-fixture.ts';

const VERSIONS = 200;
const READS = 300;
const UPDATES = 400;

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
const ms = (n: number) => `${n.toFixed(2)} ms`;

async function timedReads(url: string, token: string, n: number) {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < n + 20; i += 1) {
    const started = performance.now();
    const res = await fetch(url, { headers: { token } });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${text.slice(0, 300)}`);
    // The first 20 warm the server up.
    if (i >= 20) times.push(performance.now() - started);
    bytes = text.length;
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), bytes };
}

/** Median time of one UPDATE of a versioned row, with the versions trigger on or off. */
async function updateCost(db: Db, id: number, triggerOn: boolean): Promise<number> {
  await db.exec(
    `alter table equipment ${triggerOn ? 'enable' : 'disable'} trigger keep_record_versions`,
  );
  const times: number[] = [];
  for (let i = 0; i < UPDATES; i += 1) {
    const started = performance.now();
    await db.query(
      `update equipment set material = $1, version = version + 1, updated_at = now() where id = $2`,
      [i % 2 ? 'Glass' : 'PTFE', id],
    );
    times.push(performance.now() - started);
  }
  await db.exec(`alter table equipment enable trigger keep_record_versions`);
  times.sort((a, b) => a - b);
  return quantile(times, 0.5);
}

async function run(label: string, db: Db): Promise<void> {
  await migrate(db);
  const dataDir = mkdtempSync(join(tmpdir(), 'carryover-bench-'));
  const config = loadConfig({
    ...admin,
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    SERVE_CLIENT: 'false',
    API_RATE_LIMIT_MAX: '1000000',
  });
  await seedFirstStart(db, config);
  const app = await buildApp({ config, db });
  await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const { token, facility } = await signIn(`http://127.0.0.1:${address.port}`);
    const F = facility(1);
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${F}/${path}`, {
        method: 'POST',
        headers: { token, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { result: { id: number; version: number } };
      if (res.status !== 200) throw new Error(`${path}: ${JSON.stringify(json).slice(0, 300)}`);
      return json.result;
    };
    let record = await post('equipments', {
      name: 'Bench mixer',
      surfaceArea: { value: 10, unit: 'sqm' },
      material: 'Stainless steel 316L',
      roomGrade: 'C',
    });
    const edits: number[] = [];
    let midway = '';
    for (let v = 2; v <= VERSIONS; v += 1) {
      const started = performance.now();
      record = await post(`equipments/${record.id}`, {
        surfaceArea: { value: 10 + v, unit: 'sqm' },
        reason: `Measured again (${v})`,
        version: record.version,
      });
      edits.push(performance.now() - started);
      if (v === VERSIONS / 2) midway = new Date().toISOString();
    }
    edits.sort((a, b) => a - b);
    console.log(
      `${label}: edit over HTTP (each keeps a version): p50 ${ms(quantile(edits, 0.5))}, p99 ${ms(quantile(edits, 0.99))}`,
    );

    const versions = await timedReads(`${F}/equipments/${record.id}/versions`, token, READS);
    console.log(
      `${label}: GET …/{id}/versions of a record with ${VERSIONS} versions (${(versions.bytes / 1024).toFixed(0)} KiB): p50 ${ms(versions.p50)}, p99 ${ms(versions.p99)} (${READS} reads)`,
    );
    const live = await timedReads(`${F}/equipments/${record.id}`, token, READS);
    const asOf = await timedReads(
      `${F}/equipments/${record.id}?asOf=${encodeURIComponent(midway)}`,
      token,
      READS,
    );
    console.log(
      `${label}: detail read live p50 ${ms(live.p50)}, p99 ${ms(live.p99)}; as of version ${VERSIONS / 2} p50 ${ms(asOf.p50)}, p99 ${ms(asOf.p99)}`,
    );
    const list = await timedReads(`${F}/equipments?asOf=${encodeURIComponent(midway)}`, token, 100);
    console.log(`${label}: list read as of a moment p50 ${ms(list.p50)}, p99 ${ms(list.p99)}`);

    // Alternating rounds so that a warming cache favours neither side.
    const on: number[] = [];
    const off: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      off.push(await updateCost(db, record.id, false));
      on.push(await updateCost(db, record.id, true));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
    console.log(
      `${label}: one UPDATE of a versioned row (median of ${UPDATES} x 3 rounds): trigger off ${ms(median(off))}, on ${ms(median(on))}, the trigger adds ${ms(median(on) - median(off))}`,
    );
    // The same without the commit's own cost: many updates in one transaction.
    const batch = async (triggerOn: boolean) => {
      await db.exec(
        `alter table equipment ${triggerOn ? 'enable' : 'disable'} trigger keep_record_versions`,
      );
      const started = performance.now();
      await db.transaction(async (tx) => {
        for (let i = 0; i < 2000; i += 1)
          await tx.query(
            `update equipment set material = $1, version = version + 1 where id = $2`,
            [i % 2 ? 'Glass' : 'PTFE', record.id],
          );
      });
      await db.exec(`alter table equipment enable trigger keep_record_versions`);
      return (performance.now() - started) / 2000;
    };
    const batchOff = Math.min(await batch(false), await batch(false));
    const batchOn = Math.min(await batch(true), await batch(true));
    console.log(
      `${label}: 2,000 updates in one transaction, per update: trigger off ${ms(batchOff)}, on ${ms(batchOn)}, the trigger adds ${ms(batchOn - batchOff)}`,
    );
    const [count] = await db.query<{ n: number }>('select count(*)::int as n from record_versions');
    console.log(`${label}: record_versions rows at the end: ${count!.n}`);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.env.SKIP_PGLITE !== '1') {
  const db = await openPglite({});
  try {
    await run('PGlite', db);
  } finally {
    await db.close();
  }
}
const base = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const client = new pg.Client({ connectionString: `${base}/postgres` });
let connected = false;
try {
  await client.connect();
  connected = true;
} catch {
  console.log('PostgreSQL: no server at 127.0.0.1:5432, skipped');
}
if (connected) {
  const name = `carryover_bench_versions_${Date.now()}`;
  await client.query(`create database ${name}`);
  const db = await openPostgres(`${base}/${name}`, { max: 5 });
  try {
    await run('PostgreSQL', db);
  } finally {
    await db.close();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  }
}
