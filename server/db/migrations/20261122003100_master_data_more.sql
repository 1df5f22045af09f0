-- More master data declared in core/entities/defs (groups, cleaning, methods, substances).

create table product_groups (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  description text,
  product_ids integer[] not null default '{}',
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  archived_at timestamptz,
  archived_by integer references users (id),
  archive_reason text
);
create unique index product_groups_name_key on product_groups (facility_id, lower(name));

create table equipment_groups (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  description text,
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
create unique index equipment_groups_name_key on equipment_groups (facility_id, lower(name));

create table cleaning_agents (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  external_id text,
  manufacturer text,
  ld50 jsonb,
  pde jsonb,
  ppm_ceiling double precision,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  archived_at timestamptz,
  archived_by integer references users (id),
  archive_reason text
);
create unique index cleaning_agents_name_key on cleaning_agents (facility_id, lower(name));

create table cleaning_procedures (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  sop_number text,
  procedure_type text,
  cleaning_agent_ids integer[] not null default '{}',
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
create unique index cleaning_procedures_name_key on cleaning_procedures (facility_id, lower(name));

create table analytical_methods (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  method_number text,
  test_type text not null,
  lod jsonb,
  loq jsonb,
  recoveries jsonb not null default '[]',
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  archived_at timestamptz,
  archived_by integer references users (id),
  archive_reason text
);
create unique index analytical_methods_name_key on analytical_methods (facility_id, lower(name));

create table nitrosamines (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  cas_number text,
  acceptable_intake jsonb not null,
  intake_type text,
  source text,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  archived_at timestamptz,
  archived_by integer references users (id),
  archive_reason text
);
create unique index nitrosamines_name_key on nitrosamines (facility_id, lower(name));

create table intermediates (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  external_id text,
  pde jsonb,
  ld50 jsonb,
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
create unique index intermediates_name_key on intermediates (facility_id, lower(name));

create table variables (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  value double precision not null,
  unit text,
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
create unique index variables_name_key on variables (facility_id, lower(name));
