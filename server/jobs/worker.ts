import PgBoss from 'pg-boss';
import { isConnectionLost, type Db } from '../db/db.ts';
import { jobHandler, type JobContext, type QueuedJob } from './jobs.ts';
import { pgBoss, pgBossDb, QUEUE } from './pg-boss-db.ts';

export interface JobWorkerOptions {
  /** How long an idle worker waits before it looks for a job again (one light query). */
  pollIntervalMs?: number;
  /** How often this instance runs pg-boss's maintenance (expiry of dead jobs, archiving). */
  maintenanceIntervalMs?: number;
  /** On stop, how long a running job may take to finish before it is handed back for a retry. */
  stopGraceMs?: number;
  log?: { error(obj: object, msg: string): void };
}

export interface JobWorker {
  /** Stops polling and waits for the running job (or hands it back): no timer is left behind. */
  stop(): Promise<void>;
}

/** Thrown by `progress` once the worker stops: the handler should end, the job is retried. */
export class JobInterrupted extends Error {
  constructor() {
    super('The server stopped while the job ran');
  }
}

/** What a failed job shows: the error's first line, never a stack or anything long. */
export function failureMessage(error: unknown): string {
  const first = error instanceof Error ? (error.message.split('\n')[0]?.trim() ?? '') : '';
  return first ? first.slice(0, 500) : 'The job failed';
}

/**
 * Runs this instance's jobs, one at a time: fetches the next job of the queue (SKIP LOCKED, so
 * several instances share the queue), runs its handler and records the outcome. Call `stop`
 * before closing `db`.
 */
export async function startJobWorker(db: Db, options: JobWorkerOptions = {}): Promise<JobWorker> {
  const pollMs = options.pollIntervalMs ?? 1000;
  const maintenanceMs = options.maintenanceIntervalMs ?? 5 * 60_000;
  const graceMs = options.stopGraceMs ?? 5000;
  const log = options.log ?? { error: () => undefined };
  const boss = new PgBoss({
    db: pgBossDb(db),
    migrate: false,
    supervise: false,
    schedule: false,
  });
  boss.on('error', (err) => log.error({ err }, 'pg-boss failed'));
  await boss.start(); // checks that the schema is the version this pg-boss expects

  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let tick: Promise<void> | undefined;
  let runningId: string | undefined;
  let lastMaintenance = Date.now();

  const schedule = (ms: number) => {
    if (stopping) return;
    timer = setTimeout(() => {
      timer = undefined;
      tick = once().finally(() => {
        tick = undefined;
      });
    }, ms);
  };

  const once = async () => {
    let found = false;
    try {
      if (Date.now() - lastMaintenance >= maintenanceMs) {
        lastMaintenance = Date.now();
        await boss.maintain();
        await reconcile(db);
      }
      const [job] = await boss.fetch<QueuedJob>(QUEUE, { batchSize: 1 });
      if (job) {
        found = true;
        runningId = job.id;
        await run(db, job, () => stopping);
      }
    } catch (err) {
      log.error({ err }, 'the job worker failed');
    } finally {
      runningId = undefined;
    }
    schedule(found ? 0 : pollMs);
  };

  schedule(0);

  return {
    async stop() {
      if (stopping) return;
      stopping = true;
      clearTimeout(timer);
      const interrupted = tick && runningId;
      if (tick && !(await settlesWithin(tick, graceMs)) && interrupted) {
        await handBack(db, interrupted, 'The server stopped while the job ran').catch((err) =>
          log.error({ err }, 'handing back a running job failed'),
        );
      }
      await boss.stop({ graceful: false, close: false });
    },
  };
}

/** A job's done and total as job_runs keeps them: whole, never below zero. */
const counts = (done: number, total: number) =>
  [Math.max(0, Math.round(done)), Math.max(0, Math.round(total))] as const;

async function run(db: Db, job: PgBoss.Job<QueuedJob>, isStopping: () => boolean): Promise<void> {
  const { job: name, facilityId, data } = job.data;
  if (isStopping()) return handBack(db, job.id, 'The server stopped before the job ran');
  await db.query(
    `update job_runs set state = 'running', started_at = coalesce(started_at, now()), error = null
      where id = $1`,
    [job.id],
  );
  const handler = jobHandler(name);
  if (!handler) return finish(db, job.id, `No handler for jobs named ${name}`);
  const ctx: JobContext = {
    db,
    jobId: job.id,
    facilityId,
    async progress({ stage, done, total }) {
      if (isStopping()) throw new JobInterrupted();
      await db.query(
        `update job_runs set stage = $2, done = $3, total = $4 where id = $1 and state = 'running'`,
        [job.id, stage, ...counts(done, total)],
      );
    },
    async complete(tx, { stage, done, total }) {
      // finish() below then finds it done and only completes the job in pg-boss.
      await tx.query(
        `update job_runs set state = 'done', stage = $2, done = $3, total = $4, error = null,
                finished_at = now()
          where id = $1 and state = 'running'`,
        [job.id, stage, ...counts(done, total)],
      );
    },
  };
  try {
    await handler(data, ctx);
  } catch (error) {
    // A lost connection or a stopping server is no fault of the job: pg-boss retries it.
    if (error instanceof JobInterrupted || isConnectionLost(error))
      await handBack(db, job.id, failureMessage(error));
    else await finish(db, job.id, failureMessage(error));
    return;
  }
  await finish(db, job.id, null);
}

/**
 * Ends a job for good: done, or failed with `error`. A handler that throws fails at once (what
 * it did wrong would only happen again); pg-boss keeps the job as completed, with the error.
 */
async function finish(db: Db, id: string, error: string | null): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `update job_runs set state = $2, error = $3, finished_at = now()
        where id = $1 and state = 'running'`,
      [id, error === null ? 'done' : 'failed', error],
    );
    await pgBoss().complete(QUEUE, id, error === null ? {} : { error }, { db: pgBossDb(tx) });
  });
}

/** Gives a job back to pg-boss, which retries it later or, out of retries, fails it. */
async function handBack(db: Db, id: string, reason: string): Promise<void> {
  await db.transaction(async (tx) => {
    await pgBoss().fail(QUEUE, id, { message: reason }, { db: pgBossDb(tx) });
    await reconcile(tx, id);
  });
}

/**
 * Brings job_runs in line with pg-boss where pg-boss moved a job on its own: a job it retries
 * is queued again, one out of retries (its process died, or it expired) has failed.
 */
async function reconcile(q: Pick<Db, 'query'>, id?: string): Promise<void> {
  await q.query(
    `update job_runs r set
        state = case when j.state = 'failed' then 'failed' else 'queued' end,
        error = case when j.state = 'failed'
          then 'The job stopped before it finished and was not retried again' else null end,
        finished_at = case when j.state = 'failed' then now() end
       from pgboss.job j
      where j.name = $1 and j.id = r.id and ($2::uuid is null or r.id = $2::uuid)
        and r.state in ('queued', 'running')
        and (j.state = 'failed' or (j.state = 'retry' and r.state = 'running'))`,
    [QUEUE, id ?? null],
  );
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
