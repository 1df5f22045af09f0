-- Protocols, studies, runs, sample results and deviations (issue 12, core/verification/README.md).
-- Protocols are a declared record (core/entities/defs/protocols.def.ts, document type Protocol);
-- studies (Study) and runs (Run) are controlled records whose status lives in controlled_versions.

create table protocols (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  protocol_number text not null,
  name text not null,
  study_type text,
  production_id integer references productions (id),
  equipment_ids integer[] not null default '{}',
  product_ids integer[] not null default '{}',
  product_group_id integer references product_groups (id),
  cleaning_procedure_id integer references cleaning_procedures (id),
  cleaning_agent_id integer references cleaning_agents (id),
  -- [{ samplingLocationId, sampleType, analyticalMethodId }]
  sampling_plan jsonb not null default '[]',
  dirty_hold_max_hours double precision,
  clean_hold_max_hours double precision,
  required_passes integer,
  passes_justification text,
  limit_basis text,
  allow_release_at_risk boolean,
  limits_snapshot_id integer references limits_snapshots (id),
  description text,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  archived_at timestamptz,
  archived_by integer references users (id),
  archive_reason text
);
create unique index protocols_number_key on protocols (facility_id, lower(protocol_number));

create table studies (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  -- ST-0001, ST-0002, ... per facility.
  seq integer not null check (seq >= 1),
  title text not null,
  study_type text not null check (study_type in ('Validation', 'Verification',
    'Periodic Verification', 'New Product Introduction', 'Product Changeover', 'Batch Changeover',
    'On Demand Study')),
  description text not null default '',
  protocol_id integer not null references protocols (id),
  -- The protocol version in force when the study was created, and its content then.
  protocol_version_number integer not null,
  protocol_content jsonb not null,
  limits_snapshot_id integer references limits_snapshots (id),
  origin_kind text not null default 'none'
    check (origin_kind in ('none', 'qualificationTask', 'changeAssessment')),
  origin_id integer,
  -- Derived from the runs (core/verification/study-outcome.ts), stored for lists and kept in
  -- the versions; recomputed in the transaction of every change to a run of the study.
  outcome text not null default 'On Going' check (outcome in ('Validated', 'On Going', 'Failed')),
  consecutive_passes integer not null default 0,
  closed_at timestamptz,
  closed_by integer references users (id),
  close_reason text,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  unique (facility_id, seq)
);
create index studies_origin on studies (facility_id, origin_kind, origin_id);

create table study_runs (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  study_id integer not null references studies (id),
  sequence integer not null check (sequence >= 1),
  started_at timestamptz,
  ended_at timestamptz,
  operator_ids integer[] not null default '{}',
  cleaning_procedure_id integer references cleaning_procedures (id),
  agent_lot text,
  dirty_hold_hours double precision,
  clean_hold_hours double precision,
  visual_result text check (visual_result in ('Pass', 'Fail')),
  visual_notes text,
  -- Derived (core/verification/release.ts), recomputed on every change to the run.
  verdict text not null default 'Pending' check (verdict in ('Pass', 'Fail', 'Invalidated', 'Pending')),
  release_flag text not null default 'CAN_NOT_BE_RELEASED'
    check (release_flag in ('CAN_BE_RELEASED', 'MAY_BE_RELEASED', 'CAN_NOT_BE_RELEASED')),
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  unique (study_id, sequence)
);
create index study_runs_facility on study_runs (facility_id, id);

create table sample_results (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  run_id integer not null references study_runs (id),
  sampling_location_id integer not null references sampling_locations (id),
  equipment_id integer not null references equipment (id),
  sample_type text not null check (sample_type in ('swab', 'rinse')),
  analytical_method_id integer not null references analytical_methods (id),
  analytical_method_version integer not null,
  batch_number text,
  censoring text not null check (censoring in ('=', '< LOD', '< LOQ', '> upper limit')),
  raw_value double precision not null check (raw_value >= 0),
  unit text not null check (unit in ('mg/swab', 'ug/swab', 'mg/ml', 'ug/ml', 'ppm')),
  -- Computed by the server (core/verification/judge-result.ts), never taken from the client.
  judgement jsonb not null,
  percent_of_limit double precision,
  censored_below boolean not null default false,
  passed boolean,
  repeats_result_id integer references sample_results (id),
  repeat_kind text check (repeat_kind in ('retest', 'reswab')),
  repeat_reason text,
  superseded_by integer references sample_results (id),
  taken_at timestamptz,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id)
);
create index sample_results_run on sample_results (run_id, id);
create index sample_results_stats on sample_results (facility_id, equipment_id, taken_at);
create index sample_results_location on sample_results (facility_id, sampling_location_id);
-- Spec §5 DuplicateBatchNumber: one batch number per facility across results.
-- A retest analyses the same sample again, so it carries the batch number of what it repeats.
create unique index sample_results_batch on sample_results (facility_id, lower(batch_number))
  where batch_number is not null and repeat_kind is distinct from 'retest';

create table deviations (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  -- DEV-0001 per facility.
  seq integer not null check (seq >= 1),
  run_id integer not null references study_runs (id),
  result_id integer references sample_results (id),
  kind text not null check (kind in ('process', 'nonProcess')),
  title text not null,
  description text not null default '',
  root_cause text,
  capa_reference text,
  invalidates_run boolean not null default false,
  status text not null default 'Open' check (status in ('Open', 'Closed')),
  closed_at timestamptz,
  closed_by integer references users (id),
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  unique (facility_id, seq)
);
create index deviations_run on deviations (run_id, id);

-- Historical studies may carry their results (percent of limit as reported then) and count in
-- the ongoing verification statistics when marked so.
set constraints all immediate;
alter table historical_studies add column count_in_statistics boolean not null default false;
set constraints all deferred;

create table historical_study_results (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  historical_study_id integer not null references historical_studies (id),
  equipment_id integer references equipment (id),
  sampling_location_id integer references sampling_locations (id),
  residue_type text,
  taken_at date not null,
  percent_of_limit double precision not null check (percent_of_limit >= 0),
  censored_below boolean not null default false,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  archived_at timestamptz,
  archived_by integer references users (id),
  archive_reason text
);
create index historical_study_results_of on historical_study_results (historical_study_id, id);

select keep_record_versions('protocols');
select keep_record_versions('studies');
select keep_record_versions('study_runs');
select keep_record_versions('sample_results');
select keep_record_versions('deviations');
select keep_record_versions('historical_study_results');
