import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TJobProgress } from '#core/schemas/jobs.schemas.ts';
import { seedFirstStart } from '../db/seed.ts';
import { createTestDb, type TestDb } from '../test/test-db.ts';
import { ADMIN } from '../test/test-server.ts';
import { until } from '../test/until.ts';
import { enqueueJob, jobProgressColumn, registerJobHandler } from './jobs.ts';
import { claimJob, takeOverStaleJobs } from './heartbeat.ts';
import { startJobWorker, type JobLog, type JobWorker } from './worker.ts';

// Two workers on one database, as two instances of the app; no app polls it. On PGlite both
// run in this process; what a killed process leaves behind is played by a worker that stops
// beating (job-takeover.test.ts kills real processes on a PostgreSQL server).
let db: TestDb;
let facilityId: number;
beforeAll(async () => {
  db = await createTestDb();
  await seedFirstStart(db, { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  const [facility] = await db.query<{ id: number }>('select id from facilities limit 1');
  facilityId = facility!.id;
});
afterAll(() => db.close());

async function progressOf(id: string): Promise<TJobProgress | null> {
  const [row] = await db.query<{ job_progress: TJobProgress | null }>(
    `select ${jobProgressColumn('$1::uuid')}`,
    [id],
  );
  return row?.job_progress ?? null;
}

const bossJobNow = async (id: string) =>
  (
    await db.query<{ state: string; retry_count: number }>(
      'select state::text as state, retry_count from pgboss.job where id = $1',
      [id],
    )
  )[0];

/**
 * The queue's own row once it left `active`: the worker completes it in pg-boss after the
 * handler's transaction marked the job done, so the job's progress can read done a moment first.
 */
const bossJob = (id: string) =>
  until(
    () => bossJobNow(id),
    (job) => job?.state !== 'active',
  );

/** A pino-like logger that keeps what it was told. */
function collectingLog() {
  const lines: { level: string; msg: string; jobId?: string }[] = [];
  const at =
    (level: string) =>
    (obj: object, msg: string): void => {
      lines.push({ level, msg, ...(obj as { jobId?: string }) });
    };
  const log: JobLog = { info: at('info'), warn: at('warn'), error: at('error') };
  return { log, lines };
}

const workers: JobWorker[] = [];
afterEach(async () => {
  for (const w of workers.splice(0)) await w.stop();
});
async function worker(options: Parameters<typeof startJobWorker>[1]) {
  const w = await startJobWorker(db, { pollIntervalMs: 50, ...options });
  workers.push(w);
  return w;
}

describe('job heartbeats', () => {
  it('a job whose worker went silent is taken over by another worker and ends once', async () => {
    const runs: number[] = [];
    const ends: number[] = [];
    let releaseFirst: () => void = () => undefined;
    registerJobHandler('test.silent', async (_data, ctx) => {
      const run = runs.length + 1;
      runs.push(run);
      await ctx.progress({ stage: `Run ${run}: computing limits`, done: 1, total: 2 });
      if (run === 1) await new Promise<void>((resolve) => (releaseFirst = resolve));
      await ctx.db.transaction((tx) =>
        ctx.complete(tx, { stage: `Run ${run}: done`, done: 2, total: 2 }),
      );
      ends.push(run);
    });
    const id = await db.transaction((tx) => enqueueJob(tx, facilityId, 'test.silent', {}));
    // No worker at all yet: the screen says nobody will pick it up.
    expect(await progressOf(id)).toMatchObject({ state: 'queued', workerAlive: false });

    // The first worker says it is alive for 300 ms and then, as a frozen process would, never
    // again (its next heartbeat is a minute away).
    const first = collectingLog();
    await worker({ heartbeatIntervalMs: 60_000, staleAfterMs: 300, log: first.log });
    await until(
      () => progressOf(id),
      (p) => p?.stage === 'Run 1: computing limits',
    );
    const lapsed = await until(
      () => progressOf(id),
      (p) => p?.workerAlive === false,
    );
    expect(lapsed).toMatchObject({ state: 'running', done: 1, total: 2 });

    // Another instance's worker takes it over and runs it from the start, at once.
    const second = collectingLog();
    await worker({ heartbeatIntervalMs: 100, staleAfterMs: 1000, log: second.log });
    const done = await until(
      () => progressOf(id),
      (p) => p?.state === 'done',
    );
    expect(done).toMatchObject({ stage: 'Run 2: done', done: 2, total: 2, error: null });
    expect(await bossJob(id)).toEqual({ state: 'completed', retry_count: 1 });

    // The first run wakes up: its next write finds the job taken over and writes nothing.
    releaseFirst();
    await until(
      async () => first.lines.map((l) => l.msg),
      (msgs) => msgs.includes('job left to the worker that took it over'),
    );
    expect(runs).toEqual([1, 2]);
    expect(ends).toEqual([2]);
    expect(await progressOf(id)).toMatchObject({ stage: 'Run 2: done', state: 'done' });

    const about = (lines: typeof first.lines) =>
      lines.filter((l) => l.jobId === id).map((l) => `${l.level}: ${l.msg}`);
    expect(about(first.lines)).toEqual([
      'info: job started',
      'warn: job left to the worker that took it over',
    ]);
    expect(about(second.lines)).toEqual([
      'warn: job taken over from a worker that stopped answering; it runs again',
      'info: job started again (a retry)',
      'info: job done',
    ]);
  });

  it('a job that runs longer than the limit while its worker beats is not taken over', async () => {
    let runs = 0;
    registerJobHandler('test.long', async (_data, ctx) => {
      runs += 1;
      for (let step = 1; step <= 6; step += 1) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        await ctx.progress({ stage: 'Writing results', done: step, total: 6 });
      }
    });
    // The job runs 3 s, twice the limit. The limit is 15 beats: with 4 beats (400 ms) a process
    // held off the CPU for that long at a load of 27 lost its job while it was beating (issue 27).
    const logs = [collectingLog(), collectingLog()];
    for (const { log } of logs) await worker({ heartbeatIntervalMs: 100, staleAfterMs: 1500, log });
    const id = await db.transaction((tx) => enqueueJob(tx, facilityId, 'test.long', {}));
    const running = await until(
      () => progressOf(id),
      (p) => p?.state === 'running',
    );
    expect(running?.workerAlive).toBe(true);
    await until(
      () => progressOf(id),
      (p) => p?.state === 'done',
    );
    expect(runs).toBe(1);
    expect(await bossJob(id)).toEqual({ state: 'completed', retry_count: 0 });
    const told = logs.flatMap(({ lines }) => lines.filter((l) => l.jobId === id));
    expect(told.map((l) => l.msg)).toEqual(['job started', 'job done']);
  });

  it('a job that fails is logged with its id, its time and its reason', async () => {
    registerJobHandler('test.fails', async () => {
      throw new Error('No residue type in force');
    });
    const { log, lines } = collectingLog();
    await worker({ heartbeatIntervalMs: 100, staleAfterMs: 400, log });
    const id = await db.transaction((tx) => enqueueJob(tx, facilityId, 'test.fails', {}));
    await until(
      () => progressOf(id),
      (p) => p?.state === 'failed',
    );
    expect(lines.filter((l) => l.jobId === id)).toEqual([
      expect.objectContaining({ level: 'info', msg: 'job started', jobName: 'test.fails' }),
      expect.objectContaining({
        level: 'warn',
        msg: 'job failed',
        error: 'No residue type in force',
        ms: expect.any(Number),
      }),
    ]);
  });

  it('a fetched job is never taken from the worker that fetched it, and a job taken over before its claim is not run by its first fetch', async () => {
    registerJobHandler('test.unclaimed', async () => undefined);
    const id = await db.transaction((tx) => enqueueJob(tx, facilityId, 'test.unclaimed', {}));
    // As pg-boss's fetch leaves a job (a fetch after a start counts a retry), handed out an hour
    // ago to a worker that has not claimed it yet.
    const fetchedLongAgo = () =>
      db.query(
        `update pgboss.job set state = 'active', started_on = now() - interval '1 hour',
                retry_count = case when started_on is null then retry_count else retry_count + 1 end
          where id = $1`,
        [id],
      );
    await fetchedLongAgo();
    // The worker that holds it sweeps: its own job is alive, however long the claim took.
    expect(await takeOverStaleJobs(db, 400, id)).toEqual([]);
    // Another worker's sweep takes it over and hands it back to pg-boss.
    const [taken] = await takeOverStaleJobs(db, 400);
    expect(taken).toMatchObject({ id, previousWorker: null, outcome: 'retry' });
    // The first fetch's late claim finds the attempt gone and runs nothing.
    expect(await claimJob(db, id, 0, 'late-worker', 400)).toBe(false);
    // Fetched again (the retry): only that fetch's claim holds.
    await fetchedLongAgo();
    expect(await bossJobNow(id)).toEqual({ state: 'active', retry_count: 1 });
    expect(await claimJob(db, id, 0, 'late-worker', 400)).toBe(false);
    expect(await claimJob(db, id, 1, 'next-worker', 400)).toBe(true);
    const [run] = await db.query<{ state: string; worker_id: string }>(
      'select state, worker_id from job_runs where id = $1',
      [id],
    );
    expect(run).toEqual({ state: 'running', worker_id: 'next-worker' });
  });

  it('a worker that stops leaves no heartbeat behind', async () => {
    const w = await worker({ heartbeatIntervalMs: 100, staleAfterMs: 400 });
    const alive = () => db.query('select 1 from job_workers where alive_until > now()');
    expect((await alive()).length).toBeGreaterThan(0);
    for (const each of workers.splice(0)) await each.stop();
    expect(await alive()).toEqual([]);
    await w.stop(); // twice is harmless
  });
});
