import { randomUUID } from 'node:crypto';
import { READ_ONLY, type Db, type Queryable } from '../db/db.ts';
import { pgBoss, pgBossDb, QUEUE } from './pg-boss-db.ts';

/** What a handler gets besides its data. */
export interface JobContext {
  /** The application's database; the handler opens its own transactions. */
  db: Db;
  jobId: string;
  facilityId: number;
  /**
   * Records how far the job is, for the client. Call it outside your transactions: on PGlite
   * (one connection) a write from outside an open transaction waits for it to end.
   */
  progress(p: { stage: string; done: number; total: number }): Promise<void>;
  /**
   * In the handler's last transaction: the job reads as done, at progress `p`, when that
   * transaction commits, together with what it wrote (a reader never sees the work done and
   * the job still running). Without it the job is done a moment after the handler returns.
   */
  complete(tx: Queryable, p: { stage: string; done: number; total: number }): Promise<void>;
}

/** What a job's work reports to its job; a direct call (a test, a script) reports nowhere. */
export type JobHooks = Pick<JobContext, 'progress' | 'complete'>;
export const WITHOUT_JOB: JobHooks = { progress: async () => {}, complete: async () => {} };

export type JobHandler<T> = (data: T, ctx: JobContext) => Promise<void>;

/** What pg-boss carries for each job: which handler, for which facility, with what. */
export interface QueuedJob {
  job: string;
  facilityId: number;
  data: unknown;
}

const handlers = new Map<string, JobHandler<unknown>>();

/**
 * Names the handler of a kind of job, in every instance that may run workers (call it when the
 * feature's routes are registered). One handler a name; registering again replaces it.
 */
export function registerJobHandler<T>(name: string, handler: JobHandler<T>): void {
  handlers.set(name, handler as JobHandler<unknown>);
}

export function jobHandler(name: string): JobHandler<unknown> | undefined {
  return handlers.get(name);
}

/** Periodic upkeep of a feature (the removal of what is past its retention). */
export type Housekeeping = (db: Db) => Promise<void>;

const housekeeping = new Map<string, Housekeeping>();

/**
 * Names a piece of upkeep that the job worker runs with its maintenance, every
 * `maintenanceIntervalMs` (5 min): it must be cheap when there is nothing to do, and safe when
 * several instances run it at once. One task a name; registering again replaces it.
 */
export function registerHousekeeping(name: string, task: Housekeeping): void {
  housekeeping.set(name, task);
}

export function housekeepingTasks(): [string, Housekeeping][] {
  return [...housekeeping];
}

/**
 * In the caller's transaction: the job exists (and runs) only if that transaction commits.
 * Returns the job id (uuid).
 */
export async function enqueueJob<T extends object>(
  tx: Queryable,
  facilityId: number,
  name: string,
  data: T,
): Promise<string> {
  const id = randomUUID();
  await tx.query(`insert into job_runs (id, facility_id, name) values ($1, $2, $3)`, [
    id,
    facilityId,
    name,
  ]);
  const queued: QueuedJob = { job: name, facilityId, data };
  const sent = await pgBoss().send(QUEUE, queued, { id, db: pgBossDb(tx) });
  if (sent !== id) throw new Error(`pg-boss did not take job ${name} (${id})`);
  return id;
}

/**
 * A select column holding the progress of the job named by `jobIdSql` (null when there is none).
 * A record read with its job's progress in one statement sees both from one snapshot: read apart,
 * a job that ends between the two reads shows as done beside a record that is not yet complete.
 */
export function jobProgressColumn(jobIdSql: string): string {
  return `(select json_build_object('state', j.state, 'stage', j.stage, 'done', j.done,
      'total', j.total, 'error', j.error, 'workerAlive', ${WORKER_ALIVE})
     from job_runs j where j.id = ${jobIdSql}) as job_progress`;
}

/**
 * Whether a worker is there for the job `j` (a row of job_runs): for a running job, whether
 * the worker running it still beats; otherwise whether any instance's worker is alive to pick
 * it up. False is what the screen shows as "no server is working on it".
 */
export const WORKER_ALIVE = `case when j.state = 'running' then coalesce(j.alive_until > now(), false)
  else exists (select 1 from job_workers w where w.alive_until > now()) end`;

/** pg-boss 10's job states (pgboss.job_state). */
export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'];

/**
 * The queue's jobs by pg-boss state, for the metrics listener; a state without jobs counts 0.
 * Finished jobs move to pgboss.archive in pg-boss's maintenance, so this stays a small count.
 */
export async function jobCountsByState(q: Queryable): Promise<Map<string, number>> {
  const rows = await q.query<{ state: string; n: number }>(
    `${READ_ONLY}select state::text as state, count(*)::int as n from pgboss.job
      where name = $1 group by state`,
    [QUEUE],
  );
  const counts = new Map(JOB_STATES.map((state) => [state, 0]));
  for (const row of rows) counts.set(row.state, row.n);
  return counts;
}
