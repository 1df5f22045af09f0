-- Default units per facility (spec §3 "Default units"): the unit a new value of each measure
-- starts in. Every facility has one row per measure, existing ones from here on, new ones by
-- the trigger below, so no code path can create a facility without them.

create table default_units (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  short_name text not null,
  unit text not null,
  version integer not null default 1,
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  unique (facility_id, short_name)
);

-- The spec's defaults, keyed by the measure names of core/units/measures.ts.
create function default_unit_seed() returns table (short_name text, unit text)
language sql immutable as $$
  values ('surfaceArea', 'sqcm'), ('minBatchSize', 'kg'), ('l5', 'ppm'), ('l3', 'mg/sqcm'),
         ('l4', 'mg'), ('pde', 'mg'), ('td', 'mg'), ('strength', 'mg'), ('ld50', 'mg/kg'),
         ('volume', 'ml'), ('ldd', 'mg'), ('minDailyDose', 'mg'), ('tabletWeight', 'mg'),
         ('ai', 'ng')
$$;

insert into default_units (facility_id, short_name, unit)
select f.id, s.short_name, s.unit from facilities f cross join default_unit_seed() s
on conflict (facility_id, short_name) do nothing;

create function facilities_seed_default_units() returns trigger
language plpgsql as $$
begin
  insert into default_units (facility_id, short_name, unit)
  select new.id, s.short_name, s.unit from default_unit_seed() s
  on conflict (facility_id, short_name) do nothing;
  return new;
end
$$;

create trigger facilities_seed_default_units after insert on facilities
  for each row execute function facilities_seed_default_units();

-- The audit log screen pages newest first and filters by user, domain and action.
create index audit_log_at on audit_log (at desc, id desc);
create index audit_log_user_at on audit_log (user_id, at desc);
