import { randomUUID } from 'node:crypto';
import type { TJobProgress } from '#core/schemas/cleaning-assessments.schemas.ts';
import { maybeOne, type Db, type Queryable } from '../db/db.ts';
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
}

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

interface JobRunRow {
  state: TJobProgress['state'];
  stage: string;
  done: number;
  total: number;
  error: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A job's progress, or null when there is no such job. */
export async function jobProgress(q: Queryable, jobId: string): Promise<TJobProgress | null> {
  if (!UUID.test(jobId)) return null;
  const row = await maybeOne<JobRunRow>(
    q,
    `select state, stage, done, total, error from job_runs where id = $1`,
    [jobId],
  );
  return row ?? null;
}
