-- Master data declared in core/entities/defs: one table per entity, one column per field,
-- plus the record columns every entity shares (facility, version for optimistic locking,
-- who and when, archive). A test checks that these tables and the declarations agree.

create table actives (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  external_id text,
  cas_number text,
  pde jsonb,
  pde_basis text,
  pde_source text,
  therapeutic_dose jsonb,
  ld50 jsonb,
  solubility text,
  cleanability text,
  potency_band text,
  acceptable_intake jsonb,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  archived_at timestamptz,
  archived_by integer references users (id),
  archive_reason text
);
create unique index actives_name_key on actives (facility_id, lower(name));

create table products (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  external_id text,
  dosage_form text,
  strength jsonb,
  max_daily_dose jsonb not null,
  min_batch_size jsonb not null,
  unit_weight jsonb,
  actives jsonb not null default '[]',
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  archived_at timestamptz,
  archived_by integer references users (id),
  archive_reason text
);
create unique index products_name_key on products (facility_id, lower(name));

create table equipment (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  external_id text,
  surface_area jsonb not null,
  material text,
  room_grade text check (room_grade in ('A', 'B', 'C', 'D')),
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  archived_at timestamptz,
  archived_by integer references users (id),
  archive_reason text
);
create unique index equipment_name_key on equipment (facility_id, lower(name));

create table productions (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  external_id text,
  equipment_ids integer[] not null default '{}',
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
create unique index productions_name_key on productions (facility_id, lower(name));
