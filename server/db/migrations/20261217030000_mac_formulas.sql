-- MAC formulas (issue 32, spec §6 MACFormula): a facility's own MACO criteria, each an expression
-- over the limits engine's variables. A controlled record (document type 'MacFormula'): its
-- versions and signatures live in controlled_versions and signatures; only the approved version
-- takes part in the limits.
create table mac_formulas (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  expression text not null,
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
create unique index mac_formulas_name_key on mac_formulas (facility_id, lower(name));
select keep_record_versions('mac_formulas');

-- Listed on a page like its neighbours: a write moves the facility's list version.
create constraint trigger mac_formulas_list_version
  after insert or update or delete on mac_formulas
  deferrable initially deferred for each row execute function bump_facility_list_version();
