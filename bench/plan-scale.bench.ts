// A plan at a large site's size (issue 34): FACILITIES facilities (10) of PRODUCTS products (2,000)
// each, every one imported through the app's own workbook import, on one PostgreSQL server
// served by two instances of the app at once. Prints, for each instance:
// - the per-request cost of list pages the cache has not seen against the primary-key anchor on
//   the same database (Node CPU and PostgreSQL CPU, as bench/list-cost.ts measures them),
// - latency at 50 connections shared by both instances (p50, p99),
// - peak resident memory after the heaviest reads of a facility (its full MAC matrix in columns,
//   its every-production limits report, its product list), against the goal of < 1 GiB,
// and the database's size, for the README's sizing ("What a site needs").
//   npm run bench:plan-scale          (FACILITIES=2 PRODUCTS=200 for a quick look)
import autocannon from 'autocannon';
import pg from 'pg';
import {
  admin,
  facilityOfSize,
  facilityWorkbook,
  median,
  signIn,
  uploadWorkbook,
} from './bench-fixture.ts';
import { compareListCost, uncachedPages } from './list-cost.ts';
import { createFacility, startAnchor } from './pk-anchor.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

const FACILITIES = Number(process.env.FACILITIES ?? 10);
const SIZE = facilityOfSize(Number(process.env.PRODUCTS ?? 2_000));
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const POOL_SIZE = process.env.DB_POOL_SIZE ?? '10';
const base = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';

/** Reads a URL whole and returns its status, without keeping the body. */
async function drain(url: string, token: string): Promise<number> {
  const res = await fetch(url, { headers: { token } });
  const reader = res.body!.getReader();
  while (!(await reader.read()).done);
  return res.status;
}

/** Asks for the every-production limits report and waits for its job to end. */
async function everyProductionReport(facilityUrl: string, token: string): Promise<string> {
  const headers = { token, 'content-type': 'application/json' };
  const res = await fetch(`${facilityUrl}/reports/generate_report`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ kind: 'production-limits' }),
  });
  const { reportId } = (await res.json()) as { reportId: number };
  for (;;) {
    const read = await fetch(`${facilityUrl}/reports/${reportId}`, { headers });
    const { report } = (await read.json()) as { report: { completedAt?: string; error?: string } };
    if (report.error) return `failed: ${report.error}`;
    if (report.completedAt) return 'made';
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function heaviestReads(server: ServerProcess, token: string, facilityUrl: string) {
  const matrix = await drain(`${facilityUrl}/mac-matrix?format=columns`, token);
  const list = await drain(`${facilityUrl}/products?pageLimit=100`, token);
  const report = await everyProductionReport(facilityUrl, token);
  return `matrix ${matrix}, list ${list}, every-production report ${report}; peak RSS ${server.peakRssMiB().toFixed(0)} MiB`;
}

async function latency(urls: string[], token: string) {
  // Both instances at once, 25 connections each, every request a different uncached page.
  const runs = await Promise.all(
    urls.map((url) =>
      autocannon({ url, connections: 25, duration: 5, headers: { token } }).then((r) => {
        if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx`);
        return r;
      }),
    ),
  );
  return runs.map(
    (r) => `p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, ${r.requests.average} req/s`,
  );
}

const admin_ = new pg.Client({ connectionString: `${base}/postgres` });
await admin_.connect();
const name = `${process.env.BENCH_DB_PREFIX ?? 'carryover_bench'}_scale_${Date.now()}`;
await admin_.query(`create database ${name}`);
const databaseUrl = `${base}/${name}`;
const env = { ...admin, SERVE_CLIENT: 'false', DATABASE_URL: databaseUrl, DB_POOL_SIZE: POOL_SIZE };
const started: ServerProcess[] = [];
try {
  const first = await startServerProcess(env);
  started.push(first);
  const { token } = await signIn(first.url);
  const me = (await (
    await fetch(`${first.url}/api/v2/users/me`, { headers: { token } })
  ).json()) as {
    id: number;
    planId: number;
  };
  const workbook = await facilityWorkbook(SIZE);
  const facilityUrls: string[] = [];
  const importStarted = performance.now();
  for (let n = 1; n <= FACILITIES; n += 1) {
    const id = await createFacility(first.url, token, me.planId, `Site ${n}`);
    const url = `${first.url}/api/v2/plans/${me.planId}/facilities/${id}`;
    const t = performance.now();
    await uploadWorkbook(url, token, workbook);
    console.log(
      `import of facility ${n} (${SIZE.products} products, ${SIZE.equipment} items, ${SIZE.productions} lines): ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    facilityUrls.push(`/api/v2/plans/${me.planId}/facilities/${id}`);
  }
  console.log(
    `${FACILITIES} facilities imported in ${((performance.now() - importStarted) / 1000).toFixed(0)} s`,
  );
  const second = await startServerProcess(env);
  started.push(second);
  const anchor = await startAnchor(databaseUrl, POOL_SIZE);
  try {
    // One user has one session: a second sign-in would end the first (419), so one token serves
    // both instances, as one session does when a load balancer spreads a user's requests.
    const { token: t } = await signIn(second.url);
    for (const [i, server] of started.entries()) {
      const facility = `${server.url}${facilityUrls[i % facilityUrls.length]}`;
      const cost = await compareListCost({
        databaseUrl,
        rounds: ROUNDS,
        app: {
          pid: server.child.pid!,
          headers: { token: t },
          touch: `update products set name = name where id = (select min(id) from products)`,
          urls: (round) => uncachedPages(`${facility}/products`, SIZE.products, round),
        },
        anchor: { pid: anchor.pid, url: `${anchor.url}/users/${me.id}` },
      });
      console.log(
        `instance ${i + 1}: uncached product list pages of ${SIZE.products}: Node ${cost.app.nodeUs.toFixed(0)} µs/request (${cost.nodeRatio.toFixed(2)}x anchor's ${cost.anchor.nodeUs.toFixed(0)}), PostgreSQL ${cost.app.pgUs.toFixed(0)} µs (${cost.pgRatio.toFixed(2)}x anchor's ${cost.anchor.pgUs.toFixed(0)})`,
      );
    }
    const pages = started.map(
      (s, i) =>
        `${s.url}${facilityUrls[(i + 1) % facilityUrls.length]}/products?pageLimit=10&pageNumber=${7 + i}`,
    );
    const lat = await latency(pages, t);
    lat.forEach((l, i) => console.log(`instance ${i + 1}, 25 connections each at once: ${l}`));
    for (const [i, server] of started.entries()) {
      const facility = `${server.url}${facilityUrls[i % facilityUrls.length]}`;
      console.log(`instance ${i + 1}: ${await heaviestReads(server, t, facility)}`);
    }
    const size = await admin_.query<{ bytes: string }>(
      `select pg_database_size($1)::text as bytes`,
      [name],
    );
    const rss = started.map((s) => s.peakRssMiB());
    console.log(
      `database size: ${(Number(size.rows[0]!.bytes) / 2 ** 20).toFixed(0)} MiB; peak RSS per instance: ${rss.map((r) => r.toFixed(0)).join(', ')} MiB (goal < 1,024; median ${median(rss).toFixed(0)})`,
    );
  } finally {
    await anchor.close();
  }
} finally {
  await Promise.all(started.map((s) => s.stop()));
  if (process.env.KEEP_DB === '1') console.log(`database ${name} kept`);
  else await admin_.query(`drop database if exists ${name} with (force)`);
  await admin_.end();
}
