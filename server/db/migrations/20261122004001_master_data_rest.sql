-- The rest of the master data declared in core/entities/defs (product types, risk categories
-- and formulas, selection criteria, sampling types, microbial methods, SOPs, the document
-- register, legacy documents, change-of-control records), and the room grades A-D.

create table product_types (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  code text,
  route_of_administration text,
  is_sterile boolean,
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
create unique index product_types_name_key on product_types (facility_id, lower(name));

create table rpn_categories (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  variable text not null,
  dimension text,
  levels jsonb not null default '[]',
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
create unique index rpn_categories_name_key on rpn_categories (facility_id, lower(name));
create unique index rpn_categories_variable_key on rpn_categories (facility_id, lower(variable));

create table rpn_formulas (
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
create unique index rpn_formulas_name_key on rpn_formulas (facility_id, lower(name));

create table selection_criteria (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  criteria_id text not null,
  name text not null,
  basis text not null,
  applies_to text,
  priority integer,
  rpn_formula_id integer,
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
create unique index selection_criteria_criteria_id_key on selection_criteria (facility_id, lower(criteria_id));
create unique index selection_criteria_name_key on selection_criteria (facility_id, lower(name));

create table sampling_types (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  sample_type text not null check (sample_type in ('swab', 'rinse')),
  swab_area jsonb,
  rinse_volume jsonb,
  recovery_percentage double precision,
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
create unique index sampling_types_name_key on sampling_types (facility_id, lower(name));

create table microbial_methods (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  method_number text,
  test_type text not null,
  sampling_method text,
  result_unit text not null,
  lod double precision,
  recovery_percentage double precision,
  incubation text,
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
create unique index microbial_methods_name_key on microbial_methods (facility_id, lower(name));

create table sops (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  sop_number text not null,
  name text not null,
  revision text,
  effective_date text,
  review_date text,
  department text,
  cleaning_procedure_ids integer[] not null default '{}',
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
create unique index sops_sop_number_key on sops (facility_id, lower(sop_number));

create table document_versions (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  document_number text not null,
  name text not null,
  document_type text not null,
  current_version text not null,
  status text not null,
  effective_date text,
  change_summary text,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  archived_at timestamptz,
  archived_by integer references users (id),
  archive_reason text
);
create unique index document_versions_document_number_key on document_versions (facility_id, lower(document_number));

create table legacy_documents (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  document_number text not null,
  name text not null,
  category text,
  revision text,
  issued_date text,
  file_name text,
  file_type text,
  storage_location text,
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
create unique index legacy_documents_document_number_key on legacy_documents (facility_id, lower(document_number));

create table moc_records (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  moc_number text not null,
  name text not null,
  change_type text not null,
  status text not null,
  initiated_date text,
  target_date text,
  product_ids integer[] not null default '{}',
  equipment_ids integer[] not null default '{}',
  requires_revalidation boolean,
  impact_on_cleaning text,
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
create unique index moc_records_moc_number_key on moc_records (facility_id, lower(moc_number));

-- Room grades (EU GMP Annex 1 cleanroom grades A-D): four rows per facility, never more or
-- fewer. Which equipment stands in a grade is the equipment's room_grade; the row carries the
-- grade's description and the version that guards changes to its equipment.
create table room_grades (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  grade text not null check (grade in ('A', 'B', 'C', 'D')),
  description text not null,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  unique (facility_id, grade)
);

-- What every facility starts with: its four room grades and a swab and a rinse sampling type.
-- A trigger, so that facilities created after this migration (the first-start seed among them)
-- get them too.
create function seed_facility_master_data(f integer) returns void language sql as $$
  insert into room_grades (facility_id, grade, description)
  values
    (f, 'A', 'Grade A: high-risk aseptic operations (filling zone, open ampoules and vials)'),
    (f, 'B', 'Grade B: background environment of grade A zones for aseptic preparation and filling'),
    (f, 'C', 'Grade C: clean areas for less critical stages of sterile manufacture'),
    (f, 'D', 'Grade D: clean areas for less critical stages, and non-sterile manufacture')
  on conflict (facility_id, grade) do nothing;
  insert into sampling_types (facility_id, name, sample_type, swab_area, rinse_volume)
  select f, t.name, t.sample_type, t.swab_area::jsonb, t.rinse_volume::jsonb
    from (values
      ('Swab', 'swab', '{"value": 25, "unit": "sqcm"}', null),
      ('Rinse', 'rinse', null, '{"value": 1, "unit": "L"}')
    ) as t (name, sample_type, swab_area, rinse_volume)
   where not exists (
     select 1 from sampling_types s where s.facility_id = f and lower(s.name) = lower(t.name));
$$;

create function facilities_seed_master_data() returns trigger language plpgsql as $$
begin
  perform seed_facility_master_data(new.id);
  return new;
end;
$$;

create trigger facilities_seed_master_data after insert on facilities
  for each row execute function facilities_seed_master_data();

select seed_facility_master_data(id) from facilities;
