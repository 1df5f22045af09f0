-- Microbial results of runs, judged against the facility's microbial limit policy (issue 12,
-- core/verification/README.md "Microbial results").

set constraints all immediate;
-- The microbial policy version in force when the run started (content and version number): later
-- policy changes do not re-judge the run. Null until the run starts or takes a microbial result.
alter table study_runs add column microbial_policy jsonb;
alter table study_runs add column microbial_policy_version integer;
-- [{ samplingLocationId (null: the final rinse), kind, microbialMethodId }]; optional, so
-- protocols (and the versions studies pinned) without it plan no microbial samples.
alter table protocols add column microbial_sampling jsonb not null default '[]';
set constraints all deferred;

create table microbial_results (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  run_id integer not null references study_runs (id),
  -- Null: the final rinse.
  sampling_location_id integer references sampling_locations (id),
  equipment_id integer references equipment (id),
  -- The equipment's room grade when the result was entered: its surface limit's grade.
  room_grade text check (room_grade in ('A', 'B', 'C', 'D')),
  kind text not null check (kind in ('contactPlate', 'swab', 'rinse', 'endotoxin')),
  microbial_method_id integer references microbial_methods (id),
  censoring text not null check (censoring in ('=', '< LOD', '> upper limit')),
  raw_value double precision not null check (raw_value >= 0),
  unit text not null check (unit in ('CFU/plate', 'CFU/swab', 'CFU/ml', 'EU/ml')),
  read_at timestamptz,
  -- Computed by the server (core/verification/judge-microbial.ts), never taken from the client.
  judgement jsonb not null,
  percent_of_limit double precision,
  censored_below boolean not null default false,
  outcome text not null check (outcome in ('Pass', 'Alert', 'Fail')),
  repeats_result_id integer references microbial_results (id),
  repeat_kind text check (repeat_kind in ('retest', 'reswab')),
  repeat_reason text,
  superseded_by integer references microbial_results (id),
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  check ((sampling_location_id is null) = (equipment_id is null)),
  check (sampling_location_id is not null or kind in ('rinse', 'endotoxin'))
);
create index microbial_results_run on microbial_results (run_id, id);
create index microbial_results_stats on microbial_results (facility_id, equipment_id, read_at);
