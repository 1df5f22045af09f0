-- Administration of users and access: departments and roles get optimistic locking and archive
-- columns like every other record, and operators (people who clean equipment but never sign in)
-- get their own facility-scoped table.

alter table departments
  add column version integer not null default 1,
  add column created_by integer references users (id),
  add column updated_at timestamptz not null default now(),
  add column updated_by integer references users (id),
  add column archived_at timestamptz,
  add column archived_by integer references users (id),
  add column archive_reason text;

alter table roles
  add column created_by integer references users (id),
  add column updated_at timestamptz not null default now(),
  add column updated_by integer references users (id),
  add column archived_at timestamptz,
  add column archived_by integer references users (id),
  add column archive_reason text;

create table operators (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  first_name text not null,
  last_name text not null,
  -- The operator's badge or employee number, unique within the facility.
  operator_id text not null,
  department_id integer references departments (id),
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  archived_at timestamptz,
  archived_by integer references users (id),
  archive_reason text
);
create unique index operators_operator_id_key on operators (facility_id, lower(operator_id));
