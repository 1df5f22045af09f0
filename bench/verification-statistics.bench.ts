// GET {F}/verification/statistics over 5,000 results (issues 12 and 34): 250 runs of 20 results
// on one item of equipment entered over HTTP, then the statistics of that equipment read 50
// times: p50/p99, the answer's bytes before compression and the server's CPU per read; against
// the anchor, the same figures (count, mean, MR̄, s and every point's time, id and value) from
// one bare SQL statement through the same driver, p50 of 50 (issue 34: ≤ 3× and ≤ 200 kB). Then
// the Ongoing verification page over the same results in headless Chromium, in the production
// build: the time from opening the page until its four charts are drawn (first open, then
// reloads; median; PAGE_LOADS=0 leaves it out). Runs on PGlite, then on the PostgreSQL server at
// 127.0.0.1:5432.
//   npm run bench:verification-statistics
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { launchBrowser, newPage } from '#e2e/browser.ts';
import {
  admin,
  type BenchBody,
  bytesOf,
  facilityCaller,
  onEachDatabase,
  rng,
  signIn,
  uploadWorkbook,
} from './bench-fixture.ts';
import { startServerProcess } from './server-process.ts';
import {
  LOCATIONS,
  percentile,
  runResults,
  smallWorkbook,
  verificationStudy,
} from './verification-fixture.ts';

const RESULTS = 5_000;
const READS = Number(process.env.READS ?? 50);
const PAGE_LOADS = Number(process.env.PAGE_LOADS ?? 5);

/** User + system CPU of a process so far, in milliseconds (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The statistics' figures and points of one item, as bare SQL gives them. */
const ANCHOR_SQL = `
  with p as (
    select coalesce(r.taken_at, r.created_at) as t, r.id, r.percent_of_limit as v
      from sample_results r join study_runs u on u.id = r.run_id
     where r.facility_id = $1 and r.equipment_id = $2 and r.superseded_by is null
       and r.percent_of_limit is not null and u.verdict <> 'Invalidated'),
  o as (select t, id, v, abs(v - lag(v) over (order by t, id)) as mr from p)
  select json_build_object('n', count(*), 'mean', avg(v), 'mrBar', avg(mr), 's', stddev_samp(v),
           'points', json_agg(json_build_array(extract(epoch from t) * 1000, id, v) order by t, id)) as figures
    from o`;

/** p50 of READS runs of the anchor statement, in ms, and the points it gave. */
async function anchorP50(
  query: (sql: string, params: number[]) => Promise<unknown>,
  facilityId: number,
  equipmentId: number,
): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < READS; i++) {
    const t = performance.now();
    await query(ANCHOR_SQL, [facilityId, equipmentId]);
    times.push(performance.now() - t);
  }
  return percentile(
    times.sort((a, b) => a - b),
    50,
  );
}

async function run(label: string, env: Record<string, string>): Promise<void> {
  const serveClient = PAGE_LOADS > 0 ? 'true' : 'false';
  const server = await startServerProcess({ ...admin, SERVE_CLIENT: serveClient, ...env });
  let stopped = false;
  try {
    const { token, facility } = await signIn(server.url);
    const F = facility(1);
    await uploadWorkbook(F, token, workbook);
    const call = facilityCaller(F, token);
    const { studyId, method } = await verificationStudy(call);
    const next = rng(9);
    let equipmentId = 0;
    for (let i = 0; i < RESULTS / LOCATIONS; i++) {
      const run = (await call('POST', `/studies/${studyId}/runs`, {})).run;
      const saved = await call('POST', `/runs/${run.id}/results`, {
        results: runResults(run, method, next),
      });
      equipmentId = saved.run.results[0].equipmentId;
    }
    const times: number[] = [];
    let count = 0;
    const cpuBefore = cpuMs(server.child.pid!);
    for (let i = 0; i < READS; i++) {
      const t = performance.now();
      const res = await call(
        'GET',
        `/verification/statistics?groupBy=equipment&key=${equipmentId}`,
      );
      times.push(performance.now() - t);
      count = res.statistics.count;
    }
    const cpuPerRead = (cpuMs(server.child.pid!) - cpuBefore) / READS;
    const url = `${F}/verification/statistics?groupBy=equipment&key=${equipmentId}`;
    const [plain, gzip] = [
      await bytesOf(url, token, 'identity'),
      await bytesOf(url, token, 'gzip'),
    ];
    const sorted = times.sort((a, b) => a - b);
    const p50 = percentile(sorted, 50);
    const answer = (
      await call('GET', `/verification/statistics?groupBy=equipment&key=${equipmentId}`)
    ).statistics as BenchBody;
    const kib = (value: unknown) => (JSON.stringify(value).length / 1024).toFixed(0);
    const { points, ...figures } = answer;
    // The alerts are worded by the client from each point's rules: the points carry them.
    console.log(
      `${label}: of the answer, points ${kib(points)} KiB (${points.alertPoint.length} of them break a rule), the rest ${kib(figures)} KiB`,
    );
    console.log(
      `${label}: GET statistics over ${count} results, ${READS} reads: p50 ${p50.toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms; server CPU ${cpuPerRead.toFixed(1)} ms a read; ${(plain / 1024).toFixed(0)} KiB (${(plain / count).toFixed(1)} B a point), ${(gzip / 1024).toFixed(0)} KiB gzip`,
    );
    // Last: the browser's sign-in ends the API session above.
    if (PAGE_LOADS > 0) {
      const page = await pageTimes(server.url, equipmentId);
      const rest = page.slice(1).sort((a, b) => a - b);
      console.log(
        `${label}: Ongoing verification page over ${count} results, charts drawn: first open ${page[0]!.toFixed(0)} ms, reload p50 ${percentile(rest, 50).toFixed(0)} ms (${rest.length} reloads)`,
      );
    }
    const facilityId = Number(/facilities\/(\d+)/.exec(F)![1]);
    await server.stop();
    stopped = true;
    const anchor = await anchorOn(env, facilityId, equipmentId);
    console.log(
      `${label}: anchor, the same figures from one bare SQL statement: p50 ${anchor.toFixed(1)} ms; the route ${(p50 / anchor).toFixed(2)}× (goal ≤ 3×)`,
    );
  } finally {
    if (!stopped) await server.stop();
  }
}

/** The anchor on the database the server used, the server stopped (PGlite has one writer). */
async function anchorOn(
  env: Record<string, string>,
  facilityId: number,
  equipmentId: number,
): Promise<number> {
  if (env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      return await anchorP50((sql, params) => client.query(sql, params), facilityId, equipmentId);
    } finally {
      await client.end();
    }
  }
  const db = await PGlite.create(env.DATA_DIR!);
  try {
    return await anchorP50((sql, params) => db.query(sql, params), facilityId, equipmentId);
  } finally {
    await db.close();
  }
}

/**
 * Times from navigation until the individuals, moving range and EWMA charts are on screen: the first open loads the page's code, the reloads come from the cache.
 */
async function pageTimes(url: string, equipmentId: number): Promise<number[]> {
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, url);
    page.setDefaultTimeout(120_000);
    await page.goto('/');
    await page.getByLabel('Email/Employee ID').fill(admin.ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(admin.ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByRole('button', { name: 'Oral Solid Dosage Plant' }).click();
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    const times: number[] = [];
    for (let i = 0; i < PAGE_LOADS; i++) {
      const started = performance.now();
      if (i === 0) await page.goto(`/verification?groupBy=equipment&key=${equipmentId}`);
      else await page.reload();
      for (const chart of [/^Individuals/, /^Moving range/, /^EWMA/])
        await page.getByRole('img', { name: chart }).waitFor();
      times.push(performance.now() - started);
    }
    return times;
  } finally {
    await browser.close();
  }
}

if (PAGE_LOADS > 0)
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
const workbook = await smallWorkbook();
await onEachDatabase(run);
