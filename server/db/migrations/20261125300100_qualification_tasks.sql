-- Qualification tasks and the facility's risk goal (issue 11, core/assessments/README.md).

-- A gap (a product × train cell not covered, or covered by a study judged against a limit that
-- has tightened since) of a completed cleaning assessment becomes a task: the study proposed to
-- close it. A task is decided once, accepted or dismissed, by a signer who re-entered their
-- password (21 CFR 11.50: printed name, time and meaning kept with the decision).
create table qualification_tasks (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  -- The cleaning assessment (cleaning_assessments.id) that found the gap last: an Open task is
  -- carried over to each later assessment that finds the same gap. A plain integer: that table
  -- is created by its own migration of the same issue, and this one must not depend on the order.
  evaluation_id integer not null,
  -- The assessment that found the gap first.
  first_evaluation_id integer not null,
  -- The case study: the train (production) the gap is on, and the product; names as found.
  train_id integer not null references productions (id),
  train_name text not null,
  product_id integer not null references products (id),
  product_name text not null,
  gap text not null check (gap in ('notCovered', 'tightened')),
  proposed_study_type text not null check (proposed_study_type in ('Validation', 'Verification',
    'Periodic Verification', 'New Product Introduction', 'Product Changeover', 'Batch Changeover',
    'On Demand Study')),
  scope text not null,
  due_date date not null,
  status text not null default 'Open' check (status in ('Open', 'Accepted', 'Dismissed')),
  justification text,
  decided_by integer references users (id),
  decided_at timestamptz,
  signer_printed_name text,
  signature_meaning text,
  -- SHA-256 of the canonical content the signer decided on (qualification-tasks.ts).
  signed_content_hash text,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  check ((status = 'Open') = (decided_at is null)),
  check (status <> 'Dismissed' or coalesce(justification, '') <> '')
);
-- One Open task per gap: a later assessment carries it over instead of adding another.
create unique index qualification_tasks_one_open
  on qualification_tasks (facility_id, train_id, product_id, gap) where status = 'Open';
create index qualification_tasks_evaluation on qualification_tasks (facility_id, evaluation_id, id);
create index qualification_tasks_train on qualification_tasks (facility_id, train_id, id);

-- The app role reads and writes it like any ordinary table: grant_app_role (20261123200100),
-- run after every migration, grants that through the default privileges.
select keep_record_versions('qualification_tasks');

-- The risk goal is one facility rule document (kind RiskGoal, rule_key ''). Migrations run in one
-- transaction: an upgrade that wrote facility_rules earlier in it has deferred version triggers
-- pending, which ALTER TABLE refuses, so they fire first.
set constraints all immediate;
alter table facility_rules drop constraint facility_rules_kind_check;
alter table facility_rules add constraint facility_rules_kind_check
  check (kind in ('MicrobialPolicy', 'InspectionSettings', 'ApprovalPolicy', 'RiskGoal'));
set constraints all deferred;
