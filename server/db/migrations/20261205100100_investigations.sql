-- Laboratory investigations of out-of-specification results (issue 26; FDA guidance
-- "Investigating Out-of-Specification (OOS) Test Results for Pharmaceutical Production", 2006,
-- rev. 2022): phase I finds an assignable laboratory cause (the result is invalidated) or
-- confirms the OOS (the result stands). A controlled record of document type Investigation:
-- its outcome counts only once QA approved it (core/verification/README.md).
create table investigations (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  -- INV-0001 per facility.
  seq integer not null check (seq >= 1),
  run_id integer not null references study_runs (id),
  result_id integer not null references sample_results (id),
  phase text not null default 'laboratory' check (phase in ('laboratory')),
  outcome text check (outcome in ('assignableCause', 'confirmed')),
  cause_category text check (cause_category in
    ('calculation', 'instrument', 'standard', 'analyst', 'sampleHandling', 'other')),
  cause_description text,
  findings text not null default '',
  conclusion text,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  -- Never archived: an investigation is part of the record of the result it concerns.
  updated_by integer references users (id)
);
create unique index investigations_number on investigations (facility_id, seq);
-- One investigation per result: a rejected one is reworked, not replaced.
create unique index investigations_result on investigations (result_id);
create index investigations_run on investigations (run_id, id);

-- The investigation (approved, with an assignable laboratory cause) that invalidated a result:
-- kept in the run, the report and the statistics, marked, not counted.
alter table sample_results
  add column invalidated_by_investigation integer references investigations (id);

select keep_record_versions('investigations');
