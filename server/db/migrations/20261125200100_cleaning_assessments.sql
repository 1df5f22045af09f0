-- Facility cleaning assessments and the historical studies their coverage rests on (issue 11,
-- core/assessments/README.md "Cleaning assessments").

-- A study completed outside the platform: a declared record (core/entities/defs/historical-studies.def.ts).
create table historical_studies (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  product_id integer not null references products (id),
  production_id integer not null references productions (id),
  study_type text not null,
  completed_date text not null,
  outcome text not null check (outcome in ('Validated', 'Failed')),
  surface_limit_validated jsonb,
  name text not null,
  notes text,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  archived_at timestamptz,
  archived_by integer references users (id),
  archive_reason text
);
create index historical_studies_facility on historical_studies (facility_id, product_id);

-- One assessment of the whole facility: started at once, computed by the background job
-- `cleaning-assessment`, then a controlled record (document type CleaningAssessment).
create table cleaning_assessments (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  seq integer not null check (seq >= 1),
  number text not null,
  reason text,
  job_id uuid,
  -- What the job last reported ({ state, stage, done, total, error }); the job's own progress
  -- where the job runner keeps one.
  progress jsonb not null default '{"state":"queued","stage":"Queued","done":0,"total":0,"error":null}',
  result jsonb,
  limits_snapshot_id integer references limits_snapshots (id),
  input_hash text,
  started_by integer not null references users (id),
  started_at timestamptz not null default now(),
  completed_at timestamptz,
  version integer not null default 1,
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  unique (facility_id, seq)
);
create index cleaning_assessments_completed
  on cleaning_assessments (facility_id, completed_at) where completed_at is not null;

select keep_record_versions('historical_studies');
-- Progress reports are not versions of the record; the result and its completion are.
select keep_record_versions('cleaning_assessments', array['progress']);
