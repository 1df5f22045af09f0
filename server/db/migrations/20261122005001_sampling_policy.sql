-- How a facility samples: the sample type, its default swab area or rinse volume, and which
-- sampling locations of an item must be sampled (a number per item, or those above a risk score).
create table sampling_policies (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  sample_type text not null check (sample_type in ('swab', 'rinse')),
  swab_area jsonb,
  rinse_volume jsonb,
  locations_per_equipment integer check (locations_per_equipment > 0),
  minimum_risk_score double precision check (minimum_risk_score >= 0),
  notes text,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  archived_at timestamptz,
  archived_by integer references users (id),
  archive_reason text
);
create unique index sampling_policies_name_key on sampling_policies (facility_id, lower(name));

-- The criteria a sampling location is risk-assessed on, each with its scored options and weight.
create table sampling_attributes (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  weight integer not null check (weight > 0),
  options jsonb not null default '[]',
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
create unique index sampling_attributes_name_key on sampling_attributes (facility_id, lower(name));
