-- Controlled records, electronic signatures and limits snapshots (server/records/README.md,
-- shared/contracts/signatures-api.md).

-- The append-only trigger names the table it guards, so signatures and snapshots can share it
-- (append_only_tables() finds them by this function, and grant_app_role gives the app role
-- INSERT and SELECT only on them).
create or replace function audit_log_reject_change() returns trigger
language plpgsql as $$
begin
  raise exception '% is append-only: % is not allowed', tg_table_name, tg_op
    using errcode = '42501';
end
$$;

-- One row per version of a controlled record; `content` is what the signers saw.
create table controlled_versions (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  document_type text not null,
  document_id integer not null,
  version_number integer not null check (version_number >= 1),
  status text not null check (status in
    ('BeingBuilt', 'BeingReviewed', 'BeingApproved', 'Approved', 'Deprecated')),
  signature_state text check (signature_state in ('PendingApproval', 'Signed', 'ChangesRequested')),
  content jsonb not null,
  title text not null default '',
  -- The approval policy's steps when this version was submitted.
  approval_steps jsonb,
  allow_self_approval boolean,
  submitted_at timestamptz,
  approved_at timestamptz,
  deprecated_at timestamptz,
  created_by integer references users (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  version integer not null default 1,
  unique (facility_id, document_type, document_id, version_number)
);
-- DB-3: at most one version of a document is in force.
create unique index controlled_versions_one_approved
  on controlled_versions (facility_id, document_type, document_id) where status = 'Approved';
create index controlled_versions_waiting
  on controlled_versions (facility_id, status) where status in ('BeingReviewed', 'BeingApproved');

-- What the engine computed from, and what it gave, from the moment of an approval on.
create table limits_snapshots (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  created_at timestamptz not null default statement_timestamp(),
  document_type text not null,
  document_id integer not null,
  version_number integer not null,
  input jsonb not null,
  input_hash text not null,
  output_hash text not null
);
create index limits_snapshots_facility on limits_snapshots (facility_id, id);
create trigger limits_snapshots_no_update before update or delete on limits_snapshots
  for each row execute function audit_log_reject_change();
create trigger limits_snapshots_no_truncate before truncate on limits_snapshots
  for each statement execute function audit_log_reject_change();

-- 21 CFR 11.50 / 11.70: who signed what, when and meaning what, bound to the content's hash.
create table signatures (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  document_type text not null,
  document_id integer not null,
  version_number integer not null,
  action text not null check (action in ('Submit', 'Review', 'Approve', 'Reject')),
  signer_role text not null check (signer_role in ('Submitter', 'Reviewer', 'Approver')),
  meaning text not null,
  printed_name text not null,
  user_id integer not null references users (id),
  signed_at timestamptz not null default statement_timestamp(),
  content_hash text not null,
  reason text,
  limits_snapshot_id integer references limits_snapshots (id)
);
create index signatures_document on signatures (facility_id, document_type, document_id, id);
create trigger signatures_no_update before update or delete on signatures
  for each row execute function audit_log_reject_change();
create trigger signatures_no_truncate before truncate on signatures
  for each statement execute function audit_log_reject_change();

-- Approval policies in the contract's shape: steps instead of reviewers/approvers, and the
-- contract's document types. Old names map to the nearest type; those without one are dropped.
delete from facility_rules
 where kind = 'ApprovalPolicy'
   and rule_key not in ('Cleaning assessment', 'Change assessment', 'Protocol', 'Study report',
                        'Limits report', 'Annual summary');
update facility_rules
   set rule_key = case rule_key
         when 'Cleaning assessment' then 'CleaningAssessment'
         when 'Change assessment' then 'ChangeAssessment'
         when 'Protocol' then 'Protocol'
         when 'Study report' then 'Study'
         when 'Limits report' then 'ReportDocument'
         when 'Annual summary' then 'AnnualSummary'
       end,
       body = jsonb_build_object(
         'allowSelfApproval', coalesce((body ->> 'allowSelfApproval')::boolean, false),
         'steps',
         case when coalesce((body ->> 'requireReview')::boolean, true) then
           jsonb_build_array(
             jsonb_build_object('order', 1, 'signerRole', 'Reviewer',
               'roleIds', coalesce(body -> 'reviewers' -> 'roleIds', '[]'::jsonb),
               'minSignatures', greatest(1, coalesce((body -> 'reviewers' ->> 'minimum')::int, 1))),
             jsonb_build_object('order', 2, 'signerRole', 'Approver',
               'roleIds', coalesce(body -> 'approvers' -> 'roleIds', '[]'::jsonb),
               'minSignatures', greatest(1, coalesce((body -> 'approvers' ->> 'minimum')::int, 1))))
         else
           jsonb_build_array(
             jsonb_build_object('order', 1, 'signerRole', 'Approver',
               'roleIds', coalesce(body -> 'approvers' -> 'roleIds', '[]'::jsonb),
               'minSignatures', greatest(1, coalesce((body -> 'approvers' ->> 'minimum')::int, 1))))
         end)
 where kind = 'ApprovalPolicy';

-- SOPs and the document register become controlled records: each existing record is its
-- version 1. The register's hand-set status becomes that version's status, then goes.
insert into controlled_versions (facility_id, document_type, document_id, version_number, status,
    signature_state, content, title, approved_at, created_by, created_at, updated_at)
select facility_id, 'SOP', id, 1, 'BeingBuilt', null,
       jsonb_build_object('sopNumber', sop_number, 'name', name, 'revision', revision,
         'effectiveDate', effective_date, 'reviewDate', review_date, 'department', department,
         'cleaningProcedureIds', to_jsonb(cleaning_procedure_ids), 'description', description),
       sop_number || ' ' || name, null, created_by, created_at, updated_at
  from sops;

insert into controlled_versions (facility_id, document_type, document_id, version_number, status,
    signature_state, content, title, approved_at, created_by, created_at, updated_at)
select facility_id, 'DocumentVersion', id, 1,
       case when status = 'Approved' then 'Approved' else 'BeingBuilt' end,
       case when status = 'Approved' then 'Signed' end,
       jsonb_build_object('documentNumber', document_number, 'name', name,
         'documentType', document_type, 'currentVersion', current_version,
         'effectiveDate', effective_date, 'changeSummary', change_summary),
       document_number || ' ' || name,
       case when status = 'Approved' then updated_at end, created_by, created_at, updated_at
  from document_versions;

alter table document_versions drop column status;
