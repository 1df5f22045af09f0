// Entering 10,000 sample results across 500 runs over HTTP (issue 12): POST {F}/studies/{id}/runs
// and POST {F}/runs/{id}/results with a run's 20 results, each judged by the server. Prints the
// total time, results per second and p50/p99 per results request. Runs on PGlite, then on the
// PostgreSQL server at 127.0.0.1:5432 when one answers.
// Then, on the same database (issue 34): the statements one POST of 1 and of 20 results sends
// (the route's own work, the run answered read in its transaction, counted at the driver), and the anchor: p50 of a bare transaction that
// makes the same inserts (20 results in one statement, their 20 audit rows in another), with
// the ratio of the POST's p50 to it. Wall time lies on a busy machine, so the CPU is printed
// too: of the server and of its PostgreSQL backends per POST (read from /proc), against the
// anchor's (this process and its backend), and over all the runs, whose sum is what the
// 10,000 results in 500 runs would take on a quiet machine (goal: under 40 s).
//   npm run bench:verification-results
import {
  admin,
  facilityCaller,
  onEachDatabase,
  rng,
  signIn,
  uploadWorkbook,
} from './bench-fixture.ts';
import { backendsCpuOf, startServerProcess } from './server-process.ts';
import { countStatements } from '#server/test/statement-count.ts';
import { openDatabase } from '#server/db/open.ts';
import type { Db } from '#server/db/db.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { ZResultsBody } from '#core/schemas/verification.schemas.ts';
import { createRun } from '#server/modules/verification/runs/runs.service.ts';
import { getRun } from '#server/modules/verification/runs/runs.read.ts';
import { enterResultsAndRead } from '#server/modules/verification/runs/results.ts';
import {
  LOCATIONS,
  percentile,
  runResults,
  smallWorkbook,
  verificationStudy,
} from './verification-fixture.ts';

const RUNS = Number(process.env.RUNS ?? 500);
const ANCHOR_RUNS = Math.min(RUNS, 200);

interface Entered {
  studyId: number;
  method: number;
  facilityId: number;
  planId: number;
}

/** The statements of POST runs/{id}/results (the entry, then the run read back) for n results. */
async function statementsPerPost(db: Db, at: Entered, n: number): Promise<number> {
  const [user] = await db.query<{ id: number; name: string }>(
    `select id, first_name || ' ' || last_name as name from users where email = $1`,
    [admin.ADMIN_EMAIL],
  );
  const actor: Actor = {
    userId: user!.id,
    userName: user!.name,
    ip: null,
    userAgent: null,
    requestId: null,
  };
  const scope = { planId: at.planId, facilityId: at.facilityId };
  const runId = await createRun(db, actor, scope, at.studyId, undefined);
  const run = await getRun(db, at.facilityId, runId);
  const rows = runResults(run, at.method, rng(n)).slice(0, n);
  const { results } = ZResultsBody.parse({ results: rows });
  const counted = countStatements(db);
  await enterResultsAndRead(counted.db, actor, scope, runId, results);
  return counted.count();
}

/**
 * p50 of the anchor: a bare transaction inserting 20 results of a run (copies of its last
 * POST's, other batch numbers) in one statement and their 20 audit rows in another.
 */
async function anchorP50(
  db: Db,
  at: Entered,
  databaseCpu: () => number,
): Promise<{ p50: number; cpuMs: number }> {
  const [last] = await db.query<{ run_id: number }>(
    `select run_id from sample_results where facility_id = $1 order by id desc limit 1`,
    [at.facilityId],
  );
  const rows = await db.query<Record<string, unknown>>(
    `select * from sample_results where run_id = $1 order by id`,
    [last!.run_id],
  );
  const columns = [
    'facility_id',
    'run_id',
    'sampling_location_id',
    'equipment_id',
    'sample_type',
    'analytical_method_id',
    'analytical_method_version',
    'batch_number',
    'censoring',
    'raw_value',
    'unit',
    'judgement',
    'percent_of_limit',
    'censored_below',
    'passed',
    'created_by',
    'updated_by',
  ];
  const times: number[] = [];
  const cpu = process.cpuUsage();
  const dbCpu = databaseCpu();
  for (let i = 0; i < ANCHOR_RUNS; i++) {
    const t = performance.now();
    await db.transaction(async (tx) => {
      const params: unknown[] = [];
      const tuples = rows.map((row, k) => {
        const first = params.length + 1;
        for (const c of columns)
          params.push(
            c === 'batch_number'
              ? `A-${i}-${k}`
              : c === 'judgement'
                ? JSON.stringify(row[c])
                : row[c],
          );
        return `(${columns.map((_, j) => `$${first + j}`).join(', ')})`;
      });
      const inserted = await tx.query<{ id: number }>(
        `insert into sample_results (${columns.join(', ')}) values ${tuples.join(', ')} returning id`,
        params as never[],
      );
      const audit: unknown[] = [];
      const auditTuples = inserted.map((r, k) => {
        const first = audit.length + 1;
        audit.push(
          at.planId,
          at.facilityId,
          rows[k]!.created_by,
          String(r.id),
          JSON.stringify(rows[k]),
        );
        return `($${first}, $${first + 1}, $${first + 2}, 'SampleResult', 'Create', $${first + 3}, $${first + 4}, '', '')`;
      });
      await tx.query(
        `insert into audit_log (plan_id, facility_id, user_id, domain, action, entity_id, new_values, prev_hash, hash)
         values ${auditTuples.join(', ')}`,
        audit as never[],
      );
    });
    times.push(performance.now() - t);
  }
  const { user, system } = process.cpuUsage(cpu);
  return {
    p50: percentile(
      times.sort((a, b) => a - b),
      50,
    ),
    cpuMs: ((user + system) / 1000 + databaseCpu() - dbCpu) / ANCHOR_RUNS,
  };
}

async function run(label: string, env: Record<string, string>): Promise<void> {
  const server = await startServerProcess({ ...admin, SERVE_CLIENT: 'false', ...env });
  try {
    const { token, facility } = await signIn(server.url);
    const F = facility(1);
    await uploadWorkbook(F, token, workbook);
    const call = facilityCaller(F, token);
    const { studyId, method } = await verificationStudy(call);
    const next = rng(5);
    const times: number[] = [];
    // The server's connections are open by now (the setup's requests): the backends to watch.
    const serverDbCpu = backendsCpuOf(env.DATABASE_URL);
    const total = { server: server.cpuMs(), db: serverDbCpu(), client: process.cpuUsage() };
    const perPost = { server: 0, db: 0 };
    const started = performance.now();
    for (let i = 0; i < RUNS; i++) {
      const run = (await call('POST', `/studies/${studyId}/runs`, {})).run;
      const cpu = { server: server.cpuMs(), db: serverDbCpu() };
      const t = performance.now();
      await call('POST', `/runs/${run.id}/results`, { results: runResults(run, method, next) });
      times.push(performance.now() - t);
      perPost.server += server.cpuMs() - cpu.server;
      perPost.db += serverDbCpu() - cpu.db;
    }
    const seconds = (performance.now() - started) / 1000;
    const client = process.cpuUsage(total.client);
    const cpuSeconds = {
      server: (server.cpuMs() - total.server) / 1000,
      db: (serverDbCpu() - total.db) / 1000,
      client: (client.user + client.system) / 1e6,
    };
    const postCpuMs = (perPost.server + perPost.db) / RUNS;
    const sorted = times.sort((a, b) => a - b);
    const results = RUNS * LOCATIONS;
    const p50 = percentile(sorted, 50);
    await server.stop();
    const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR ?? '' });
    try {
      const [f] = await db.query<{ id: number; plan_id: number }>(
        `select id, plan_id from facilities order by id limit 1`,
      );
      const at = { studyId, method, facilityId: f!.id, planId: f!.plan_id };
      const one = await statementsPerPost(db, at, 1);
      const twenty = await statementsPerPost(db, at, LOCATIONS);
      const anchor = await anchorP50(db, at, backendsCpuOf(env.DATABASE_URL));
      console.log(
        `${label}: statements per POST results: ${one} for 1 result, ${twenty} for ${LOCATIONS}; anchor (bare transaction, the same ${LOCATIONS} results and audit rows, ${ANCHOR_RUNS} runs) p50 ${anchor.p50.toFixed(2)} ms; POST p50 / anchor p50 = ${(p50 / anchor.p50).toFixed(2)}`,
      );
      console.log(
        `${label}: CPU per POST results: server ${(perPost.server / RUNS).toFixed(1)} ms${env.DATABASE_URL ? `, its PostgreSQL backends ${(perPost.db / RUNS).toFixed(1)} ms` : ''}; anchor ${anchor.cpuMs.toFixed(1)} ms (this process${env.DATABASE_URL ? ' and its backend' : ''}); POST CPU / anchor CPU = ${(postCpuMs / anchor.cpuMs).toFixed(2)}`,
      );
    } finally {
      await db.close();
    }
    console.log(
      `${label}: ${results} results in ${RUNS} runs entered in ${seconds.toFixed(1)} s (${(results / seconds).toFixed(0)} results/s, runs created included); POST results (${LOCATIONS} each): p50 ${p50.toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`,
    );
    const quiet = cpuSeconds.server + cpuSeconds.db + cpuSeconds.client;
    console.log(
      `${label}: CPU of those ${RUNS} runs: server ${cpuSeconds.server.toFixed(1)} s${env.DATABASE_URL ? `, its PostgreSQL backends ${cpuSeconds.db.toFixed(1)} s` : ''}, this client ${cpuSeconds.client.toFixed(1)} s: ${quiet.toFixed(1)} s in all, about their time on a quiet machine (goal for 10,000 results in 500 runs: under 40 s)`,
    );
  } finally {
    if (server.child.exitCode === null) await server.stop();
  }
}

const workbook = await smallWorkbook();
await onEachDatabase(run);
