-- Facility rules kept as one JSON document each (microbial cleaning limit policy, cleaning
-- inspection settings, an approval policy per document type). No row means the defaults.
create table facility_rules (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  kind text not null check (kind in ('MicrobialPolicy', 'InspectionSettings', 'ApprovalPolicy')),
  -- The document type of an approval policy; '' for the facility-wide documents.
  rule_key text not null default '',
  body jsonb not null,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  unique (facility_id, kind, rule_key)
);

-- Pictures of equipment. A removal keeps the row (with who, when and why), as the audit
-- trail refers to it.
create table equipment_images (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  equipment_id integer not null references equipment (id),
  name text,
  mime_type text not null check (mime_type in ('image/png', 'image/jpeg')),
  size_bytes integer not null,
  sha256 text not null,
  image_data text not null,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  deleted_at timestamptz,
  deleted_by integer references users (id),
  delete_reason text
);
create index equipment_images_equipment on equipment_images (equipment_id) where deleted_at is null;

-- The spots of an item of equipment that are sampled, with their risk assessment.
create table sampling_locations (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  equipment_id integer not null references equipment (id),
  name text not null,
  description text,
  sample_type text not null check (sample_type in ('swab', 'rinse')),
  sampling_type_id integer references sampling_types (id),
  swab_area jsonb,
  material text,
  assessment jsonb,
  risk_score integer,
  risk_level text check (risk_level in ('Low', 'Medium', 'High')),
  assessed_at timestamptz,
  assessed_by integer references users (id),
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  archived_at timestamptz,
  archived_by integer references users (id),
  archive_reason text
);
create unique index sampling_locations_name_key on sampling_locations (equipment_id, lower(name));

-- The samples taken at a sampling location.
create table samples (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  equipment_id integer not null references equipment (id),
  sampling_location_id integer not null references sampling_locations (id),
  name text not null,
  sample_type text not null check (sample_type in ('swab', 'rinse')),
  analytical_test text,
  analytical_method_id integer references analytical_methods (id),
  microbial_method_id integer references microbial_methods (id),
  swab_area jsonb,
  rinse_volume jsonb,
  batch_number text,
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
create unique index samples_name_key on samples (sampling_location_id, lower(name));
create unique index samples_batch_number_key on samples (facility_id, lower(batch_number))
  where batch_number is not null;
