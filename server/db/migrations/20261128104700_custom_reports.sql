-- Saved custom reports (issue 13, spec §3 "custom report"): a declared record
-- (core/entities/defs/custom-reports.def.ts), versioned and audited by the record mechanism.
create table custom_reports (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  source text not null check (source in ('pairs', 'products', 'equipment', 'sampleResults', 'auditEntries')),
  -- [{ key }], in the order the report shows them
  columns jsonb not null default '[]',
  -- [{ column, operator, value }]
  filters jsonb not null default '[]',
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
create index custom_reports_facility on custom_reports (facility_id, lower(name));

select keep_record_versions('custom_reports');
