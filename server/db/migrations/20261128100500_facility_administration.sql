-- Facility and facility-group administration (issue 14): both become records of the record
-- mechanism (optimistic locking, who and when, kept versions), as departments did.

alter table facilities
  add column created_by integer references users (id),
  add column updated_at timestamptz not null default now(),
  add column updated_by integer references users (id),
  add column archived_at timestamptz,
  add column archived_by integer references users (id),
  add column archive_reason text;

alter table facility_groups
  add column version integer not null default 1,
  add column created_by integer references users (id),
  add column updated_at timestamptz not null default now(),
  add column updated_by integer references users (id),
  add column archived_at timestamptz,
  add column archived_by integer references users (id),
  add column archive_reason text;

select keep_record_versions('facility_groups');
