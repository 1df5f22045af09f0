-- Change assessments (issue 11, core/assessments/README.md): a staged change set of master-data
-- and policy edits, evaluated against the limits in force, that changes nothing until approved.
-- The controlled status lives in controlled_versions (document type ChangeAssessment);
-- `changeStatus` is derived from it, the cancellation and the evaluation's currency.

create table change_assessments (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  -- CA-0001, CA-0002, ... per facility.
  seq integer not null,
  title text not null,
  change_type text not null,
  description text not null default '',
  moc_id integer references moc_records (id),
  -- Moves with every change of the staged set: an evaluation is current only for the set it saw.
  change_set_version integer not null default 1,
  limits_snapshot_id integer references limits_snapshots (id),
  cancelled_at timestamptz,
  cancelled_by integer references users (id),
  cancel_reason text,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  unique (facility_id, seq)
);
create index change_assessments_moc on change_assessments (facility_id, moc_id);

-- The staged changes, in the order they apply. An unstaged change is kept, marked removed.
create table change_assessment_changes (
  id integer generated always as identity primary key,
  assessment_id integer not null references change_assessments (id),
  facility_id integer not null references facilities (id),
  position integer not null,
  op text not null check (op in ('create', 'update', 'archive', 'restore')),
  entity text not null,
  record_id integer,
  record_version integer,
  "values" jsonb not null default '{}',
  reason text not null,
  label text not null default '',
  staged_by integer references users (id),
  staged_at timestamptz not null default now(),
  updated_by integer references users (id),
  updated_at timestamptz not null default now(),
  removed_at timestamptz,
  removed_by integer references users (id),
  removed_reason text
);
create index change_assessment_changes_of on change_assessment_changes (assessment_id, position);

-- The latest evaluation of an assessment: the impact, the facility's data watermark and the
-- change set version it was computed for. Items and pairs are json (kept as written): stored and
-- read whole, never searched inside, and up to 10,000 pairs are stored faster so.
create table change_assessment_evaluations (
  assessment_id integer primary key references change_assessments (id),
  facility_id integer not null references facilities (id),
  evaluated_at timestamptz not null default now(),
  evaluated_by integer references users (id),
  watermark bigint not null,
  change_set_version integer not null,
  summary jsonb not null,
  items json not null,
  pairs json not null
);

-- A decision per impact item, by the item's key (kept across evaluations while the key survives).
create table change_assessment_decisions (
  id integer generated always as identity primary key,
  assessment_id integer not null references change_assessments (id),
  facility_id integer not null references facilities (id),
  item_key text not null,
  decision text not null check (decision in
    ('noAction', 'verification', 'newProductStudy', 'revalidation', 'updateProtocol',
     'updateSamplingPlan')),
  justification text not null,
  decided_by integer references users (id),
  decided_at timestamptz not null default now(),
  unique (assessment_id, item_key)
);

-- The facility's data watermark reads the newest kept version of a facility.
create index record_versions_facility_newest on record_versions (facility_id, id);

-- The app role gets these tables through grant_app_role's default privileges (20261123200100).
select keep_record_versions('change_assessments');
