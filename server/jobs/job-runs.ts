import type { Db, Queryable } from '../db/db.ts';
import { pgBoss, pgBossDb, QUEUE } from './pg-boss-db.ts';

/**
 * How job_runs and pg-boss move together. A worker changes a job only while job_runs names it
 * as the job's worker: once another instance has taken the job over (heartbeat.ts), what the
 * first one still does to it (complete, fail, hand back) must not touch the new run.
 */

/**
 * Brings job_runs in line with pg-boss where pg-boss moved a job on its own: a job it retries
 * is queued again, one out of retries (its process died, or it expired) has failed.
 */
export async function reconcile(q: Pick<Db, 'query'>, id?: string): Promise<void> {
  await q.query(
    `update job_runs r set
        state = case when j.state = 'failed' then 'failed' else 'queued' end,
        error = case when j.state = 'failed'
          then 'The job stopped before it finished and was not retried again' else null end,
        finished_at = case when j.state = 'failed' then now() end,
        worker_id = null
       from pgboss.job j
      where j.name = $1 and j.id = r.id and ($2::uuid is null or r.id = $2::uuid)
        and r.state in ('queued', 'running')
        and (j.state = 'failed' or (j.state = 'retry' and r.state = 'running'))`,
    [QUEUE, id ?? null],
  );
}

/**
 * Ends a job for good: done, or failed with `error`, if this worker still holds it. A handler
 * that throws fails at once (what it did wrong would only happen again); pg-boss keeps the job
 * as completed, with the error. False when another worker has taken the job over.
 */
export async function finishJob(
  db: Db,
  id: string,
  workerId: string,
  error: string | null,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [held] = await tx.query<{ state: string }>(
      `select state from job_runs where id = $1 and worker_id = $2 for update`,
      [id, workerId],
    );
    if (!held) return false;
    // A job completed in its handler's last transaction (ctx.complete) is done already.
    await tx.query(
      `update job_runs set state = $2, error = $3, finished_at = now()
        where id = $1 and state = 'running'`,
      [id, error === null ? 'done' : 'failed', error],
    );
    await pgBoss().complete(QUEUE, id, error === null ? {} : { error }, { db: pgBossDb(tx) });
    return true;
  });
}

/**
 * Gives a job back to pg-boss, which retries it later or, out of retries, fails it; only while
 * this worker holds it, or before it has marked it running (fetched, never claimed). Returns
 * pg-boss's state of the job afterwards ('retry' or 'failed'), or null when it was not ours.
 */
export async function handBackJob(
  db: Db,
  id: string,
  workerId: string,
  reason: string,
): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [held] = await tx.query(
      `select 1 from job_runs where id = $1
          and (worker_id = $2 or (worker_id is null and state = 'queued')) for update`,
      [id, workerId],
    );
    if (!held) return null;
    await pgBoss().fail(QUEUE, id, { message: reason }, { db: pgBossDb(tx) });
    await reconcile(tx, id);
    return pgBossState(tx, id);
  });
}

export async function pgBossState(q: Queryable, id: string): Promise<string | null> {
  const [job] = await q.query<{ state: string }>(
    `select state::text as state from pgboss.job where id = $1`,
    [id],
  );
  return job?.state ?? null;
}
