import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db, Queryable } from '../db/db.ts';
import { pgBossState, reconcile } from './job-runs.ts';
import { pgBoss, pgBossDb, QUEUE } from './pg-boss-db.ts';

/**
 * Heartbeats (migration 20261208120100): every worker keeps its row of job_workers alive, and
 * the job it runs; a running job whose heartbeat has lapsed belongs to an instance that died
 * (kill -9, a lost host) and is taken over by another, instead of waiting out pg-boss's
 * one-hour expiry. `aliveMs` is how long a heartbeat holds: written by the beating worker, so
 * whoever reads it needs no configuration of its own.
 */

/** Names this worker in job_workers and job_runs: host, process and a random part. */
export function newWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

const UNTIL = `now() + $3 * interval '1 millisecond'`;

/** This worker is alive for `aliveMs` more. */
export async function beatWorker(q: Queryable, workerId: string, aliveMs: number): Promise<void> {
  await q.query(
    `insert into job_workers (id, host, pid, alive_until) values ($1, $2, $4, ${UNTIL})
     on conflict (id) do update set heartbeat_at = now(), alive_until = excluded.alive_until`,
    [workerId, hostname(), aliveMs, process.pid],
  );
}

/** The job this worker runs is alive for `aliveMs` more; false when the worker lost it. */
export async function beatJob(
  q: Queryable,
  jobId: string,
  workerId: string,
  aliveMs: number,
): Promise<boolean> {
  const rows = await q.query(
    `update job_runs set heartbeat_at = now(), alive_until = ${UNTIL}
      where id = $1 and worker_id = $2 and state = 'running' returning id`,
    [jobId, workerId, aliveMs],
  );
  return rows.length > 0;
}

/**
 * This worker starts the job it fetched: only while pg-boss still has that fetch of it active.
 * A worker slower than `aliveMs` between the fetch and this claim may have lost the job to a
 * sweep (handed back to pg-boss, perhaps fetched again by another worker): then it claims
 * nothing and runs nothing, so no job's handler runs twice for one attempt.
 */
export async function claimJob(
  q: Queryable,
  jobId: string,
  retryCount: number,
  workerId: string,
  aliveMs: number,
): Promise<boolean> {
  const rows = await q.query(
    `update job_runs r set state = 'running', started_at = coalesce(r.started_at, now()),
            error = null, worker_id = $2, heartbeat_at = now(), alive_until = ${UNTIL}
       from pgboss.job j
      where r.id = $1 and j.id = r.id and j.state = 'active' and j.retry_count = $4
      returning r.id`,
    [jobId, workerId, aliveMs, retryCount],
  );
  return rows.length > 0;
}

/** A worker that stops says so: its jobs are handed back or done by then. */
export async function forgetWorker(q: Queryable, workerId: string): Promise<void> {
  await q.query(`delete from job_workers where id = $1`, [workerId]);
}

// A job is stale when pg-boss has it active and neither its heartbeat nor its start (a worker
// that died between fetching a job and saying it runs it) is recent.
const STALE = `j.name = $1 and j.id = r.id and j.state = 'active'
  and greatest(r.alive_until, j.started_on + $2 * interval '1 millisecond') < now()`;

export interface TakenOver {
  id: string;
  name: string;
  /** The worker that ran it, if it had said so. */
  previousWorker: string | null;
  /** pg-boss's state of the job afterwards: retry (runs again at once), failed, completed. */
  outcome: string;
}

/**
 * Takes over every stale job: each is handed back to pg-boss to run again at once (a retry: a
 * job that kills its worker every time runs out of retries), or completed when its handler had
 * completed it before the process died. Several instances may sweep at once: each job is taken
 * over by one of them, once (the row's new heartbeat fails the others' condition).
 */
export async function takeOverStaleJobs(
  db: Db,
  staleMs: number,
  ownJobId: string | null = null,
): Promise<TakenOver[]> {
  // The sweeping worker is alive, and so is the job it runs, even one it fetched and has not
  // claimed yet: on a busy machine that gap outlasted a short staleMs and the worker took its own
  // job from itself (heartbeat.test.ts, under load).
  const stale = await db.query<{ id: string }>(
    `select r.id from pgboss.job j, job_runs r
      where ${STALE} and r.id is distinct from $3::uuid order by j.started_on`,
    [QUEUE, staleMs, ownJobId],
  );
  const taken: TakenOver[] = [];
  for (const { id } of stale) {
    const one = await db.transaction((tx) => takeOver(tx, id, staleMs));
    if (one) taken.push(one);
  }
  return taken;
}

async function takeOver(tx: Queryable, id: string, staleMs: number): Promise<TakenOver | null> {
  // Locks the job's row; a sweeper that waited on that lock rechecks STALE against the new
  // alive_until and takes nothing.
  const [row] = await tx.query<{ state: string; name: string; previous: string | null }>(
    `with before as (select id, worker_id from job_runs where id = $3 for update)
     update job_runs r set worker_id = null, heartbeat_at = null,
         alive_until = now() + $2 * interval '1 millisecond'
       from pgboss.job j, before b
      where r.id = $3 and b.id = r.id and ${STALE}
      returning r.state, r.name, b.worker_id as previous`,
    [QUEUE, staleMs, id],
  );
  if (!row) return null;
  const taken = { id, name: row.name, previousWorker: row.previous };
  if (row.state === 'done') {
    await pgBoss().complete(QUEUE, id, {}, { db: pgBossDb(tx) });
    return { ...taken, outcome: 'completed' };
  }
  await pgBoss().fail(QUEUE, id, { message: 'Its worker stopped answering' }, { db: pgBossDb(tx) });
  // Not the job's fault: it runs again at once rather than after the retry delay.
  await tx.query(`update pgboss.job set start_after = now() where id = $1 and state = 'retry'`, [
    id,
  ]);
  await reconcile(tx, id);
  return { ...taken, outcome: (await pgBossState(tx, id)) ?? 'failed' };
}

/** Rows of workers silent for a day: nothing reads them any more. */
export async function forgetDeadWorkers(q: Queryable): Promise<void> {
  await q.query(`delete from job_workers where alive_until < now() - interval '1 day'`);
}
