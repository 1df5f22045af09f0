-- The mappings of an API (drug substance) facility (issue 32, spec §6 ApiProduction,
-- ApiEquipment, ApiProduct): an API production, its numbered process steps with the equipment
-- each runs on, and the substances present at each step. Master data like productions: versioned,
-- audited, archived with a reason, never deleted.
-- An earlier migration of the same upgrade may have left history rows pending (a deferred
-- trigger): they are kept first, as the other migrations that alter a table do.
set constraints all immediate;
create table api_productions (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  active_id integer not null references actives (id),
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
create unique index api_productions_name_key on api_productions (facility_id, lower(name));
create index api_productions_list on api_productions (facility_id, lower(name), id);

create table api_process_steps (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  api_production_id integer not null references api_productions (id),
  step_number integer not null check (step_number between 1 and 999),
  name text not null,
  equipment_ids integer[] not null default '{}',
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  archived_at timestamptz,
  archived_by integer references users (id),
  archive_reason text
);
-- One live step per number in a process; the write path refuses a duplicate with a message
-- first (server/modules/api-productions), this holds under concurrent writes too.
create unique index api_process_steps_number_key on api_process_steps
  (facility_id, api_production_id, step_number) where archived_at is null;
create index api_process_steps_list on api_process_steps (facility_id, lower(name), id);

create table api_step_substances (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  api_production_id integer not null references api_productions (id),
  step_id integer not null references api_process_steps (id),
  active_id integer references actives (id),
  intermediate_id integer references intermediates (id),
  note text,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  archived_at timestamptz,
  archived_by integer references users (id),
  archive_reason text,
  constraint api_step_substances_one_substance check (num_nonnulls(active_id, intermediate_id) = 1)
);
create index api_step_substances_step on api_step_substances (facility_id, step_id);

select keep_record_versions('api_productions');
select keep_record_versions('api_process_steps');
select keep_record_versions('api_step_substances');

-- Listed on a page like their neighbours: a write moves the facility's list version.
create constraint trigger api_productions_list_version
  after insert or update or delete on api_productions
  deferrable initially deferred for each row execute function bump_facility_list_version();
create constraint trigger api_process_steps_list_version
  after insert or update or delete on api_process_steps
  deferrable initially deferred for each row execute function bump_facility_list_version();
create constraint trigger api_step_substances_list_version
  after insert or update or delete on api_step_substances
  deferrable initially deferred for each row execute function bump_facility_list_version();
set constraints all deferred;
