-- Results from the laboratory (issue 33): a laboratory's file of results is imported through
-- the run screen's own entry of results, with the column mapping saved per laboratory.

-- A laboratory's column mapping: which header of its file holds each field of a result. A
-- declared record (core/entities/defs/results-import-mappings.def.ts), versioned and audited.
create table results_import_mappings (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  laboratory text not null,
  run_column text,
  study_column text,
  location_column text not null,
  sample_number_column text not null,
  sample_type_column text,
  method_column text,
  reported_column text,
  value_column text not null,
  unit_column text,
  sampled_at_column text,
  analysed_at_column text,
  analyst_column text,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  archived_at timestamptz,
  archived_by integer references users (id),
  archive_reason text
);
create index results_import_mappings_facility on results_import_mappings (facility_id, lower(name));

-- When and by whom the laboratory analysed a sample, as its system reports them (21 CFR
-- 211.194(a)(7)/(8): the record names who performed each test and when). Typed results may
-- carry them too.
alter table sample_results
  add column analysed_at timestamptz,
  add column analyst text;

select keep_record_versions('results_import_mappings');

-- A write moves the facility's list version, so a cached list page is never served stale
-- (20261128150500_list_versions.sql).
create constraint trigger results_import_mappings_list_version
  after insert or update or delete on results_import_mappings
  deferrable initially deferred for each row execute function bump_facility_list_version();
