import { describe, expect, it } from 'vitest';
import { seedFirstStart } from '../db/seed.ts';
import { createTestDb } from '../test/test-db.ts';
import { ADMIN, facilityPath } from '../test/test-server.ts';
import { useFacilityTestServer } from '../test/facility-test-file.ts';
import { buildUser } from '../test/factories.ts';
import { until } from '../test/until.ts';
import type { TJobProgress } from '#core/schemas/jobs.schemas.ts';
import type { Queryable } from '../db/db.ts';
import { enqueueJob, jobProgressColumn, registerJobHandler } from './jobs.ts';
import { pgBoss, pgBossDb, QUEUE } from './pg-boss-db.ts';
import { startJobWorker } from './worker.ts';

const t = useFacilityTestServer();

const ran: string[] = [];
registerJobHandler<{ tag: string }>('test.record', async ({ tag }) => {
  ran.push(tag);
});

/** A handler that reports a stage, then waits until the test lets it go on. */
const gates = new Map<string, () => void>();
registerJobHandler<{ gate: string }>('test.gated', async ({ gate }, ctx) => {
  await ctx.progress({ stage: 'Computing limits', done: 1, total: 3 });
  await new Promise<void>((resolve) => gates.set(gate, resolve));
  await ctx.progress({ stage: 'Writing results', done: 3, total: 3 });
});

/** A handler that writes its outcome and completes in one transaction, then lingers. */
registerJobHandler<{ gate: string }>('test.completing', async ({ gate }, ctx) => {
  await ctx.db.transaction(async (tx) => {
    await tx.query(`update job_runs set stage = 'Writing the outcome' where id = $1`, [ctx.jobId]);
    await ctx.complete(tx, { stage: 'Done', done: 2, total: 2 });
  });
  await new Promise<void>((resolve) => gates.set(gate, resolve));
});

registerJobHandler<{ message: string }>('test.failing', async ({ message }, ctx) => {
  await ctx.progress({ stage: 'Reading records', done: 0, total: 2 });
  throw new Error(message);
});

const enqueue = (name: string, data: object) =>
  t.server.db.transaction((tx) => enqueueJob(tx, t.facilityId, name, data));
/** A job's progress as a record that has the job reads it (null when there is no such job). */
async function jobProgress(q: Queryable, id: string): Promise<TJobProgress | null> {
  const [row] = await q.query<{ job_progress: TJobProgress | null }>(
    `select ${jobProgressColumn('$1::uuid')}`,
    [id],
  );
  return row?.job_progress ?? null;
}
const progressOf = (id: string) => jobProgress(t.server.db, id);

/**
 * The queue's own state once the worker has settled the job there: it completes or fails the
 * job in pg-boss just after the handler's transaction marked it done or failed.
 */
async function bossStateOnceSettled(id: string): Promise<string | undefined> {
  const row = await until(
    async () =>
      (
        await t.server.db.query<{ state: string }>('select state from pgboss.job where id = $1', [
          id,
        ])
      )[0],
    (r) => r?.state !== 'active',
  );
  return row?.state;
}

describe('background jobs', () => {
  it('a job enqueued in a transaction that rolls back never exists nor runs', async () => {
    let rolledBack = '';
    await expect(
      t.server.db.transaction(async (tx) => {
        rolledBack = await enqueueJob(tx, t.facilityId, 'test.record', { tag: 'rolled back' });
        throw new Error('the caller changed its mind');
      }),
    ).rejects.toThrow('the caller changed its mind');
    expect(rolledBack).toMatch(/^[0-9a-f-]{36}$/);
    expect(await progressOf(rolledBack)).toBeNull();
    const inQueue = await t.server.db.query('select 1 from pgboss.job where id = $1', [rolledBack]);
    expect(inQueue).toHaveLength(0);

    // A job committed after it runs; the queue is first in, first out, so the other would
    // have run before it.
    const committed = await enqueue('test.record', { tag: 'committed' });
    expect(await progressOf(committed)).toMatchObject({ state: 'queued', error: null });
    await until(
      () => progressOf(committed),
      (p) => p?.state === 'done',
    );
    expect(ran).toEqual(['committed']);
    const res = await t.call('GET', `${t.F}/jobs/${rolledBack}`);
    expect(res.status).toBe(404);
  });

  it('a job completed in its last transaction reads as done from its commit', async () => {
    const id = await enqueue('test.completing', { gate: 'c1' });
    // The handler has not returned: the job reads as done all the same.
    await until(
      () => progressOf(id),
      () => gates.has('c1'),
    );
    expect(await progressOf(id)).toEqual({
      state: 'done',
      stage: 'Done',
      done: 2,
      total: 2,
      error: null,
      workerAlive: true,
    });
    gates.get('c1')!();
    // The worker then completes it in pg-boss, and leaves it done.
    await until(
      async () =>
        (
          await t.server.db.query<{ state: string }>('select state from pgboss.job where id = $1', [
            id,
          ])
        )[0]?.state,
      (state) => state === 'completed',
    );
    expect(await progressOf(id)).toMatchObject({ state: 'done', stage: 'Done' });
  });

  it('a committed job runs and reports its progress to the client', async () => {
    const id = await enqueue('test.gated', { gate: 'g1' });
    const running = await until(
      () => t.call('GET', `${t.F}/jobs/${id}`),
      (r) => r.body?.job?.state === 'running' && gates.has('g1'),
    );
    expect(running.status).toBe(200);
    expect(running.body.job).toEqual({
      id,
      name: 'test.gated',
      state: 'running',
      stage: 'Computing limits',
      done: 1,
      total: 3,
      error: null,
      workerAlive: true,
    });
    gates.get('g1')!();
    const done = await until(
      () => t.call('GET', `${t.F}/jobs/${id}`),
      (r) => r.body?.job?.state === 'done',
    );
    expect(done.body.job).toMatchObject({ stage: 'Writing results', done: 3, total: 3 });
    const [row] = await t.server.db.query<{ started: boolean; finished: boolean }>(
      `select started_at is not null as started, finished_at >= started_at as finished
         from job_runs where id = $1`,
      [id],
    );
    expect(row).toEqual({ started: true, finished: true });
    expect(await bossStateOnceSettled(id)).toBe('completed');
  });

  it('a handler that throws ends failed with its message, without a stack, and is not retried', async () => {
    const id = await enqueue('test.failing', {
      message: 'No residue type in force\n    at x.ts:1',
    });
    const failed = await until(
      () => progressOf(id),
      (p) => p?.state === 'failed',
    );
    expect(failed).toEqual({
      state: 'failed',
      stage: 'Reading records',
      done: 0,
      total: 2,
      error: 'No residue type in force',
      workerAlive: true,
    });
    expect(await bossStateOnceSettled(id)).toBe('completed');
  });

  it('a job of no known kind fails and says so', async () => {
    const id = await enqueue('test.nobody', {});
    const failed = await until(
      () => progressOf(id),
      (p) => p?.state === 'failed',
    );
    expect(failed?.error).toBe('No handler for jobs named test.nobody');
  });

  it('a job is read only in its own facility, by anyone granted that facility', async () => {
    const id = await enqueue('test.record', { tag: 'scoped' });
    const other = await facilityPath(t.server, 1);
    expect(other).not.toBe(t.F);
    expect((await t.call('GET', `${other}/jobs/${id}`)).status).toBe(404);

    // A user with no permission at all, granted only the first facility, follows the job there.
    const user = await buildUser(t.server.db, { facilityIds: [t.facilityId] });
    const token = await t.server.login(user.username, user.password);
    const own = await t.call('GET', `${t.F}/jobs/${id}`, undefined, token);
    expect(own.status).toBe(200);
    expect(own.body.job).toMatchObject({ id, name: 'test.record' });
    expect((await t.call('GET', `${other}/jobs/${id}`, undefined, token)).status).toBe(403);

    expect((await t.call('GET', `${t.F}/jobs/not-a-uuid`)).status).toBe(422);
    const unknown = '00000000-0000-0000-0000-000000000000';
    expect((await t.call('GET', `${t.F}/jobs/${unknown}`)).status).toBe(404);
    expect((await t.call('GET', `${t.F}/jobs/${id}`, undefined, 'no-such-session')).status).toBe(
      401,
    );
  });

  it('a worker that stops while a job runs hands it back, and another worker runs it again', async () => {
    // A database of its own, with no app polling it: only the two workers below take jobs.
    const db = await createTestDb();
    try {
      await seedFirstStart(db, { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
      const [facility] = await db.query<{ id: number }>('select id from facilities limit 1');
      const runs: number[] = [];
      registerJobHandler('test.interrupted', async (_data, ctx) => {
        runs.push(runs.length + 1);
        // The first run is still busy when its worker stops; its next report tells it to end.
        if (runs.length === 1) await new Promise((resolve) => setTimeout(resolve, 300));
        await ctx.progress({ stage: `Run ${runs.length}`, done: 1, total: 1 });
      });
      const id = await db.transaction((tx) => enqueueJob(tx, facility!.id, 'test.interrupted', {}));
      const first = await startJobWorker(db, { pollIntervalMs: 50 });
      await until(
        async () => runs.length,
        (n) => n >= 1,
      );
      await first.stop();
      expect(await jobProgress(db, id)).toMatchObject({ state: 'queued', stage: '' });
      const [boss] = await db.query<{ state: string }>(
        'select state from pgboss.job where id = $1',
        [id],
      );
      expect(boss?.state).toBe('retry');

      // pg-boss waits its retry delay (30 s) before offering the job again; bring that forward.
      await db.query('update pgboss.job set start_after = now() where id = $1', [id]);
      const second = await startJobWorker(db, { pollIntervalMs: 50 });
      try {
        const done = await until(
          () => jobProgress(db, id),
          (p) => p?.state === 'done',
        );
        expect(done).toMatchObject({ stage: 'Run 2', done: 1, total: 1, error: null });
        expect(runs).toEqual([1, 2]);
      } finally {
        await second.stop();
      }
    } finally {
      await db.close();
    }
  });

  it('a job whose process died is retried once it expires, and fails when out of retries', async () => {
    const db = await createTestDb();
    try {
      await seedFirstStart(db, { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
      const [facility] = await db.query<{ id: number }>('select id from facilities limit 1');
      const enqueued = (n: number) =>
        db.transaction((tx) => enqueueJob(tx, facility!.id, 'test.record', { tag: `dead ${n}` }));
      const [retried, exhausted] = [await enqueued(1), await enqueued(2)];
      // A worker took both and its process died: pg-boss has them active, job_runs running.
      const taken = await pgBoss().fetch(QUEUE, { batchSize: 2, db: pgBossDb(db) });
      expect(taken.map((j) => j.id).sort()).toEqual([retried, exhausted].sort());
      await db.query(`update job_runs set state = 'running', stage = 'Half way'`);
      await db.query(
        `update pgboss.job set started_on = now() - interval '2 hours',
           retry_count = case when id = $2 then retry_limit else 0 end
          where id in ($1, $2)`,
        [retried, exhausted],
      );

      // Maintenance (as the app role on a server) expires them and job_runs follows.
      const worker = await startJobWorker(db, { maintenanceIntervalMs: 0, pollIntervalMs: 50 });
      try {
        await until(
          () => jobProgress(db, exhausted),
          (p) => p?.state === 'failed',
        );
      } finally {
        await worker.stop();
      }
      expect(await jobProgress(db, exhausted)).toMatchObject({
        state: 'failed',
        error: 'The job stopped before it finished and was not retried again',
      });
      // The other waits out its retry delay, queued again.
      expect(await jobProgress(db, retried)).toMatchObject({ state: 'queued' });
      const states = await db.query<{ id: string; state: string }>(
        'select id, state from pgboss.job where id in ($1, $2)',
        [retried, exhausted],
      );
      expect(Object.fromEntries(states.map((r) => [r.id, r.state]))).toEqual({
        [retried]: 'retry',
        [exhausted]: 'failed',
      });
    } finally {
      await db.close();
    }
  });

  it('the app role works the queue but cannot change pg-boss’s schema (only the owner migrates)', async () => {
    const [role] = await t.server.db.query<{ owns: boolean; create: boolean; write: boolean }>(
      `select pg_has_role(current_user, n.nspowner, 'MEMBER') as owns,
              has_schema_privilege('pgboss', 'CREATE') as create,
              has_table_privilege('pgboss.job', 'INSERT, UPDATE, DELETE')
                and has_table_privilege('pgboss.archive', 'INSERT, DELETE') as write
         from pg_namespace n where n.nspname = 'pgboss'`,
    );
    // Two roles (DATABASE_OWNER_URL) on a server; one role (PGlite) owns everything.
    expect(role).toEqual({
      owns: !process.env.DATABASE_OWNER_URL,
      create: !process.env.DATABASE_OWNER_URL,
      write: true,
    });
  });
});
