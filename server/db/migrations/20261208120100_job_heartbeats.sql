-- Heartbeats of the job workers (server/jobs/README.md). A worker writes its row every few
-- seconds and, while it runs a job, the job's row too; a running job whose heartbeat has lapsed
-- is taken over by another instance within a minute or two, instead of waiting out pg-boss's
-- one-hour expiry. alive_until is written by the beating worker (now plus its own limit), so
-- readers need no configuration to tell a live worker from a dead one.
-- Operational rows, not GMP data: whatever a job writes is audited where it writes it.
create table job_workers (
  id text primary key,
  host text not null,
  pid integer not null,
  started_at timestamptz not null default now(),
  heartbeat_at timestamptz not null default now(),
  alive_until timestamptz not null
);
create index job_workers_alive on job_workers (alive_until);

-- Which worker runs the job now, when it last said so, and until when that holds.
alter table job_runs
  add column worker_id text,
  add column heartbeat_at timestamptz,
  add column alive_until timestamptz;
