import PgBoss from 'pg-boss';
import { isConnectionLost, type Db } from '../db/db.ts';
import {
  beatJob,
  beatWorker,
  claimJob,
  forgetDeadWorkers,
  forgetWorker,
  newWorkerId,
  takeOverStaleJobs,
} from './heartbeat.ts';
import { finishJob, handBackJob, reconcile } from './job-runs.ts';
import { housekeepingTasks, jobHandler, type JobContext, type QueuedJob } from './jobs.ts';
import { pgBossDb, QUEUE } from './pg-boss-db.ts';

export interface JobWorkerOptions {
  /** How long an idle worker waits before it looks for a job again (one light query). */
  pollIntervalMs?: number;
  /** How often this instance runs pg-boss's maintenance (expiry of dead jobs, archiving). */
  maintenanceIntervalMs?: number;
  /** On stop, how long a running job may take to finish before it is handed back for a retry. */
  stopGraceMs?: number;
  /** How often the worker says it (and its job) is alive, and looks for jobs of dead workers. */
  heartbeatIntervalMs?: number;
  /** How long a heartbeat holds: a running job silent for longer is taken over. */
  staleAfterMs?: number;
  log?: JobLog;
}

/** Where a worker tells what its jobs do (the app's pino logger: JSON lines). */
export interface JobLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const SILENT: JobLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

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

/**
 * Thrown by `progress` and `complete` once another instance has taken the job over (this one
 * was silent for too long): the handler should end, and its last transaction rolls back.
 */
export class JobTakenOver extends Error {
  constructor() {
    super('Another worker took the job over');
  }
}

/** What a failed job shows: the error's first line, never a stack or anything long. */
export function failureMessage(error: unknown): string {
  const first = error instanceof Error ? (error.message.split('\n')[0]?.trim() ?? '') : '';
  return first ? first.slice(0, 500) : 'The job failed';
}

/** The job a worker runs now, and whether another instance has taken it over. */
interface Running {
  id: string;
  isClaimed: boolean;
  isLost: boolean;
}

/**
 * Runs this instance's jobs, one at a time: fetches the next job of the queue (SKIP LOCKED, so
 * several instances share the queue), runs its handler and records the outcome. A heartbeat
 * keeps the worker and its job alive and takes over the jobs of workers that went silent. Call
 * `stop` before closing `db`.
 */
export async function startJobWorker(db: Db, options: JobWorkerOptions = {}): Promise<JobWorker> {
  const pollMs = options.pollIntervalMs ?? 1000;
  const maintenanceMs = options.maintenanceIntervalMs ?? 5 * 60_000;
  const graceMs = options.stopGraceMs ?? 5000;
  const beatMs = options.heartbeatIntervalMs ?? 5000;
  const staleMs = options.staleAfterMs ?? 60_000;
  const log = options.log ?? SILENT;
  const workerId = newWorkerId();
  const boss = new PgBoss({
    db: pgBossDb(db),
    migrate: false,
    supervise: false,
    schedule: false,
  });
  boss.on('error', (err) => log.error({ err }, 'pg-boss failed'));
  await boss.start(); // checks that the schema is the version this pg-boss expects
  await beatWorker(db, workerId, staleMs);

  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let tick: Promise<void> | undefined;
  let running: Running | undefined;
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
        await forgetDeadWorkers(db);
        // One feature's failing upkeep neither stops the others nor the jobs.
        for (const [name, task] of housekeepingTasks())
          await task(db).catch((err: unknown) =>
            log.error({ err, housekeeping: name }, 'housekeeping failed'),
          );
      }
      const [job] = await boss.fetch<QueuedJob>(QUEUE, { batchSize: 1, includeMetadata: true });
      if (job) {
        found = true;
        running = { id: job.id, isClaimed: false, isLost: false };
        await run({
          db,
          job,
          workerId,
          aliveMs: staleMs,
          log,
          running,
          isStopping: () => stopping,
        });
      }
    } catch (err) {
      log.error({ err }, 'the job worker failed');
    } finally {
      running = undefined;
    }
    schedule(found ? 0 : pollMs);
  };

  // The heartbeat runs beside the jobs: a handler that keeps the event loop busy for longer
  // than staleAfterMs loses its job to another instance (and its last transaction).
  let beatTimer: NodeJS.Timeout | undefined;
  let beating: Promise<void> | undefined;
  const beat = async () => {
    try {
      await beatWorker(db, workerId, staleMs);
      const job = running;
      if (job?.isClaimed && !(await beatJob(db, job.id, workerId, staleMs))) job.isLost = true;
      for (const taken of await takeOverStaleJobs(db, staleMs, job?.id ?? null)) {
        log.warn(
          {
            jobId: taken.id,
            jobName: taken.name,
            previousWorker: taken.previousWorker,
            outcome: taken.outcome,
          },
          taken.outcome === 'retry'
            ? 'job taken over from a worker that stopped answering; it runs again'
            : `job taken over from a worker that stopped answering; ${taken.outcome}`,
        );
      }
    } catch (err) {
      log.error({ err }, 'the job heartbeat failed');
    }
  };
  const scheduleBeat = () => {
    if (stopping) return;
    beatTimer = setTimeout(() => {
      beating = beat().finally(() => {
        beating = undefined;
        scheduleBeat();
      });
    }, beatMs);
  };

  schedule(0);
  scheduleBeat();

  return {
    async stop() {
      if (stopping) return;
      stopping = true;
      clearTimeout(timer);
      clearTimeout(beatTimer);
      const interrupted = tick && running?.id;
      if (tick && !(await settlesWithin(tick, graceMs)) && interrupted) {
        await handBackJob(db, interrupted, workerId, 'The server stopped while the job ran').catch(
          (err) => log.error({ err }, 'handing back a running job failed'),
        );
      }
      await beating;
      await forgetWorker(db, workerId).catch((err) =>
        log.error({ err }, 'removing the job worker’s heartbeat failed'),
      );
      await boss.stop({ graceful: false, close: false });
    },
  };
}

/** A job's done and total as job_runs keeps them: whole, never below zero. */
const counts = (done: number, total: number) =>
  [Math.max(0, Math.round(done)), Math.max(0, Math.round(total))] as const;

interface RunArgs {
  db: Db;
  job: PgBoss.JobWithMetadata<QueuedJob>;
  workerId: string;
  aliveMs: number;
  log: JobLog;
  running: Running;
  isStopping: () => boolean;
}

async function run({ db, job, workerId, aliveMs, log, running, isStopping }: RunArgs) {
  const { job: name, facilityId, data } = job.data;
  const about = { jobId: job.id, jobName: name, facilityId, retry: job.retryCount };
  const handBack = async (reason: string) => {
    const after = await handBackJob(db, job.id, workerId, reason);
    if (after === 'retry') log.warn({ ...about, reason }, 'job handed back; it will be retried');
    else if (after) log.error({ ...about, reason }, 'job failed: out of retries');
  };
  if (isStopping()) return handBack('The server stopped before the job ran');
  if (!(await claimJob(db, job.id, job.retryCount, workerId, aliveMs))) {
    log.warn(about, 'job left to the worker that took it over');
    return;
  }
  running.isClaimed = true;
  log.info(about, job.retryCount > 0 ? 'job started again (a retry)' : 'job started');
  const started = performance.now();
  const ended = (error: string | null) => {
    const ms = Math.round(performance.now() - started);
    if (error === null) log.info({ ...about, ms }, 'job done');
    else log.warn({ ...about, ms, error }, 'job failed');
  };
  const handler = jobHandler(name);
  if (!handler) {
    const error = `No handler for jobs named ${name}`;
    if (await finishJob(db, job.id, workerId, error)) ended(error);
    return;
  }
  const ctx: JobContext = {
    db,
    jobId: job.id,
    facilityId,
    async progress({ stage, done, total }) {
      if (isStopping()) throw new JobInterrupted();
      if (running.isLost) throw new JobTakenOver();
      const rows = await db.query(
        `update job_runs set stage = $2, done = $3, total = $4
          where id = $1 and state = 'running' and worker_id = $5 returning id`,
        [job.id, stage, ...counts(done, total), workerId],
      );
      if (rows.length === 0) {
        running.isLost = true;
        throw new JobTakenOver();
      }
    },
    async complete(tx, { stage, done, total }) {
      // finishJob() below then finds it done and only completes the job in pg-boss. Taken over,
      // the handler's transaction rolls back: the job's other run writes the outcome.
      const rows = await tx.query(
        `update job_runs set state = 'done', stage = $2, done = $3, total = $4, error = null,
                finished_at = now()
          where id = $1 and state = 'running' and worker_id = $5 returning id`,
        [job.id, stage, ...counts(done, total), workerId],
      );
      if (rows.length === 0) {
        running.isLost = true;
        throw new JobTakenOver();
      }
    },
  };
  try {
    await handler(data, ctx);
  } catch (error) {
    if (error instanceof JobTakenOver || running.isLost) {
      log.warn(about, 'job left to the worker that took it over');
      return;
    }
    // A lost connection or a stopping server is no fault of the job: pg-boss retries it.
    if (error instanceof JobInterrupted || isConnectionLost(error))
      return handBack(failureMessage(error));
    const message = failureMessage(error);
    if (await finishJob(db, job.id, workerId, message)) ended(message);
    return;
  }
  if (await finishJob(db, job.id, workerId, null)) ended(null);
  else log.warn(about, 'job left to the worker that took it over');
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
