-- Issue 31: the equipment's cleaning and use log (21 CFR 211.182: a written record of the
-- cleaning and use of each major item, dated and signed, in chronological order). An entry is
-- never changed: a correction is a new entry pointing at the one it corrects (21 CFR 211.180(d),
-- Annex 11 §9). The table joins the append-only tables by using the audit trail's rejecting
-- trigger, so the app role may only INSERT and SELECT it (grant_app_role).
create table equipment_logbook (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  equipment_id integer not null references equipment (id),
  event text not null check (event in ('UseStarted', 'UseEnded', 'CleaningStarted',
    'CleaningEnded', 'Released', 'Blocked', 'Unblocked', 'Correction')),
  -- When it happened: the server's time, or an earlier `at` given with a reason (back_dated).
  occurred_at timestamptz not null,
  recorded_at timestamptz not null default statement_timestamp(),
  back_dated boolean not null default false,
  product_id integer references products (id),
  batch text,
  cleaning_procedure_id integer references cleaning_procedures (id),
  run_id integer references study_runs (id),
  reason text,
  corrects_id integer references equipment_logbook (id),
  -- The hold times in force when the use or the cleaning ended (pinned: a later change of the
  -- protocol or the facility default does not move a deadline already running), and their source.
  dirty_hold_hours double precision,
  clean_hold_hours double precision,
  hold_source text check (hold_source in ('protocol', 'facility default')),
  -- A release whose verification run was MAY_BE_RELEASED (the protocol allows release at risk).
  released_at_risk boolean not null default false,
  -- The Released entry is an electronic signature (21 CFR 11.50): the signer's printed name,
  -- its meaning and the hash of what was signed.
  signer_printed_name text,
  signature_meaning text,
  signed_content_hash text,
  recorded_by integer not null references users (id),
  check ((event = 'Correction') = (corrects_id is not null)),
  check (not back_dated or reason is not null),
  check ((event = 'Released') = (signature_meaning is not null))
);
create index equipment_logbook_item on equipment_logbook (facility_id, equipment_id, id);
create trigger equipment_logbook_no_update before update or delete on equipment_logbook
  for each row execute function audit_log_reject_change();
create trigger equipment_logbook_no_truncate before truncate on equipment_logbook
  for each statement execute function audit_log_reject_change();

-- The fold of each item's log (core/equipment-status foldLogbook) as of its last entry, kept by
-- the write path in the entry's transaction so that the board reads one row per item instead of
-- every entry; the clock is applied at each read. Derived data only: a read whose row does not
-- name the item's latest entry folds the log itself.
create table equipment_status (
  equipment_id integer primary key references equipment (id),
  facility_id integer not null references facilities (id),
  last_entry_id integer not null references equipment_logbook (id),
  fold jsonb not null
);
create index equipment_status_facility on equipment_status (facility_id);
