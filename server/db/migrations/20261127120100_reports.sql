-- Reports as controlled documents (issue 13; server/modules/reports/README.md): one row per
-- generated report (document type ReportDocument), its data and the files rendered from it.
create table reports (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  seq integer not null check (seq >= 1),
  number text not null,
  kind text not null,
  title text not null,
  -- What the user asked for (the kind's parameters), enough to regenerate it.
  parameters jsonb not null,
  job_id uuid,
  -- The moment the data was read: regenerating "as of" it reads the same records.
  as_of timestamptz,
  limits_snapshot_id integer references limits_snapshots (id),
  data jsonb,
  -- SHA-256 of the canonical JSON of `data`.
  data_hash text,
  error text,
  generated_by integer not null references users (id),
  generated_by_name text,
  generated_at timestamptz not null default now(),
  completed_at timestamptz,
  version integer not null default 1,
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  unique (facility_id, seq)
);
create index reports_facility on reports (facility_id, id desc);

-- Each file rendered from a report: the xlsx once, the PDF once per state of its record (the
-- draft, then with its signatures), every one kept with its SHA-256. Append-only.
create table report_files (
  id integer generated always as identity primary key,
  report_id integer not null references reports (id),
  format text not null check (format in ('pdf', 'xlsx')),
  -- The record state the file shows: version number, status and the signatures it lists.
  state_key text not null,
  sha256 text not null,
  bytes bytea not null,
  created_at timestamptz not null default now(),
  unique (report_id, format, state_key)
);

select keep_record_versions('reports', array['data']);
