-- Equipment trains (issue 32, spec §6 EquipmentTrain): the equipment a product passes through,
-- in order, as a record of its own. `equipment_ids` keeps the order the user gave.
-- An earlier migration of the same upgrade may have left history rows pending (a deferred
-- trigger): they are kept first, as the other migrations that alter a table do.
set constraints all immediate;
create table equipment_trains (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  equipment_ids integer[] not null default '{}',
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
create unique index equipment_trains_name_key on equipment_trains (facility_id, lower(name));
select keep_record_versions('equipment_trains');

-- Listed on a page like its neighbours: a write moves the facility's list version.
create constraint trigger equipment_trains_list_version
  after insert or update or delete on equipment_trains
  deferrable initially deferred for each row execute function bump_facility_list_version();

-- A production may name its train. No data is moved: a production without one keeps its own
-- equipment exactly as before, so no limit of an existing production changes.
alter table productions add column train_id integer references equipment_trains (id);
create index productions_train_id on productions (facility_id, train_id) where train_id is not null;
set constraints all deferred;
