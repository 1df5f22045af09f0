// The equipment status board (issue 31; target under 100 ms p50 on PostgreSQL): ITEMS equipment
// items made over HTTP, then ENTRIES logbook entries spread over them (each item cycling
// through cleaning, release, use; a few blocked), written straight into the append-only table
// as the app role may (INSERT), and each item's fold kept as the write path keeps it; then
// GET {F}/equipment-status read READS times. Prints p50/p95/p99.
// Runs on PGlite (unless SKIP_PGLITE=1), then on PostgreSQL: with DATABASE_URL and
// DATABASE_OWNER_URL set (scripts/ci-pg-roles.mjs) a database of its own created and migrated by
// the owner and served as the app's least-privilege role, as in production; otherwise on the
// server at 127.0.0.1:5432 (or BENCH_PG_URL) as its superuser. The app runs in this process:
// the entries are inserted by SQL beside it, through the app's own connection.
//   npm run bench:equipment-status
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '#server/config.ts';
import type { Db } from '#server/db/db.ts';
import { migrateAsOwner } from '#server/db/migrate-owner.ts';
import { openDatabase } from '#server/db/open.ts';
import { seedFirstStart } from '#server/db/seed.ts';
import { keepFolds } from '#server/modules/equipment-status/logbook.read.ts';
import { withDatabase } from '#server/test/test-db-urls.ts';
import { admin, facilityCaller, signIn, type BenchBody } from './bench-fixture.ts';
import { percentile } from './verification-fixture.ts';

const ITEMS = Number(process.env.ITEMS ?? 1000);
const ENTRIES = Number(process.env.ENTRIES ?? 50_000);
const READS = Number(process.env.READS ?? 50);

/** One cycle of an item's log; the n-th entry of an item is CYCLE[n % 5]. */
const CYCLE = ['CleaningStarted', 'CleaningEnded', 'Released', 'UseStarted', 'UseEnded'];

async function seedEntries(db: Db, facilityId: number) {
  const users = await db.query<{ id: number }>('select id from users where email = $1', [
    admin.ADMIN_EMAIL,
  ]);
  // Entries an hour apart per item, the n-th of an item the CYCLE's n-th; every 50th item is
  // blocked at its end. Released entries carry the meaning the table requires of them.
  await db.query(
    `insert into equipment_logbook (facility_id, equipment_id, event, occurred_at, product_id,
         batch, clean_hold_hours, dirty_hold_hours, hold_source, signature_meaning,
         signer_printed_name, signed_content_hash, recorded_by)
       select $1, e.id, ev.event, now() - make_interval(hours => ($3::int / $4::int) - k),
              null,
              case when ev.event = 'UseStarted' then 'B-' || k end,
              case when ev.event = 'CleaningEnded' then 72 end,
              case when ev.event = 'UseEnded' then 24 end,
              case when ev.event in ('CleaningEnded', 'UseEnded') then 'facility default' end,
              case when ev.event = 'Released' then 'Release equipment' end,
              case when ev.event = 'Released' then 'Bench Signer' end,
              case when ev.event = 'Released' then repeat('0', 64) end,
              $2
         from (select id, row_number() over (order by id) as n from equipment
                where facility_id = $1 and archived_at is null) e
         cross join generate_series(0, ($3::int / $4::int) - 1) k
         cross join lateral (select case when e.n % 50 = 0 and k = ($3::int / $4::int) - 1
                                         then 'Blocked' else ($5::text[])[((k + e.n) % 5) + 1] end as event) ev
        order by e.id, k`,
    [facilityId, users[0]!.id, ENTRIES, ITEMS, CYCLE],
  );
  const [{ count }] = (await db.query<{ count: string }>(
    'select count(*) from equipment_logbook where facility_id = $1',
    [facilityId],
  )) as [{ count: string }];
  return Number(count);
}

/** Where the bench runs: PGlite, or a PostgreSQL database as the app's role and its owner. */
interface Target {
  label: string;
  appUrl?: string;
  ownerUrl?: string;
}

/**
 * The app in this process over the target's database, migrated (by the owner when there is one)
 * and seeded as on a first start (this bench seeds by SQL, so it needs the database, not a
 * separate server process).
 */
async function startApp(target: Target) {
  const dataDir = mkdtempSync(join(tmpdir(), 'carryover-bench-'));
  const config = loadConfig({
    ...admin,
    DATA_DIR: dataDir,
    ...(target.appUrl ? { DATABASE_URL: target.appUrl } : {}),
    ...(target.ownerUrl ? { DATABASE_OWNER_URL: target.ownerUrl } : {}),
    SERVE_CLIENT: 'false',
    LOG_LEVEL: 'warn',
    API_RATE_LIMIT_MAX: '1000000000',
  });
  const db = await openDatabase({ databaseUrl: target.appUrl, dataDir, poolSize: 10 });
  await migrateAsOwner(db, config);
  await seedFirstStart(db, config);
  const { buildApp } = await import('#server/app.ts');
  const app = await buildApp({ config, db });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    db,
    url: `http://127.0.0.1:${address.port}`,
    async stop() {
      await app.close();
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function run(target: Target): Promise<void> {
  const server = await startApp(target);
  try {
    const { token, facility } = await signIn(server.url);
    const F = facility(1);
    const call = facilityCaller(F, token);
    for (let i = 0; i < ITEMS; i++)
      await call('POST', '/equipments', {
        name: `Bench item ${i}`,
        surfaceArea: { value: 1, unit: 'sqm' },
      });
    const entries = await seedEntries(server.db, 1);
    // What the write path keeps beside each item's log after its last entry.
    await keepFolds(server.db, 1, null);
    const ms: number[] = [];
    let last: BenchBody = {};
    for (let i = 0; i < READS; i++) {
      const t = performance.now();
      last = await call('GET', '/equipment-status');
      ms.push(performance.now() - t);
    }
    const sorted = ms.sort((a, b) => a - b);
    const states = new Map<string, number>();
    for (const item of last.items as BenchBody[])
      states.set(item.state, (states.get(item.state) ?? 0) + 1);
    const at = (p: number) => `p${p} ${percentile(sorted, p).toFixed(1)} ms`;
    console.log(
      `${target.label}: GET equipment-status (${(last.items as unknown[]).length} items, ${entries} entries; ${[...states].map(([s, n]) => `${s} ${n}`).join(', ')}), ${READS} reads: ${[50, 95, 99].map(at).join(', ')}`,
    );
  } finally {
    await server.stop();
  }
}

if (process.env.SKIP_PGLITE !== '1') await run({ label: 'PGlite' });

// With the two roles the owner creates the database; otherwise the server's superuser does.
const appUrl = process.env.DATABASE_URL;
const ownerUrl = process.env.DATABASE_OWNER_URL;
const twoRoles = Boolean(appUrl && ownerUrl);
const base = twoRoles
  ? ownerUrl!
  : `${process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432'}/postgres`;
const client = new pg.Client({ connectionString: withDatabase(base, 'postgres') });
await client.connect();
const name = `carryover_bench_${Date.now()}`;
await client.query(`create database ${name}`);
try {
  await run(
    twoRoles
      ? {
          label: 'PostgreSQL (owner and app roles)',
          appUrl: withDatabase(appUrl!, name),
          ownerUrl: withDatabase(ownerUrl!, name),
        }
      : { label: 'PostgreSQL', appUrl: withDatabase(base, name) },
  );
} finally {
  // KEEP_DB=1 leaves the database for a look at its plans afterwards (EXPLAIN, psql).
  if (process.env.KEEP_DB === '1') console.log(`PostgreSQL: database ${name} kept`);
  // The owner may not end other sessions (force); the app's are closed by now.
  else await client.query(`drop database if exists ${name}${twoRoles ? '' : ' with (force)'}`);
  await client.end();
}
