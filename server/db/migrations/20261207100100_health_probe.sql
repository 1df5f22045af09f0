-- The readiness check's write probe (GET /api/v2/health/ready): each check inserts one row,
-- commits, and deletes it again. A read, or a write rolled back, succeeds on a database that
-- refuses every commit (a full disk, a read-only standby), which is what a site must see before
-- users find it (EU GMP Annex 11 §7.1: data secured against damage, its accessibility checked).
-- The rows are operational, not GMP data: no version, no audit, nothing else refers to them.
create table health_probe (
  id bigint generated always as identity primary key,
  probed_at timestamptz not null default now()
);
