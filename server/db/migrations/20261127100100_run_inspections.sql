-- Visual inspection records of runs (issue 12, core/verification/README.md "Visual inspection").
-- A run pins the cleaning inspection settings in force when its cleaning starts (the version
-- number and its content), so a later change of the settings does not re-judge it; its
-- inspection record (inspector, time, light, checklist answers, result, notes, evidence
-- reference, second-person verification) is kept on the run as JSON and versioned with it.
-- Migrations run in one transaction: deferred version triggers pending on these tables would
-- make ALTER TABLE refuse, so they fire first.
set constraints all immediate;
alter table study_runs add column inspection_settings_version integer;
alter table study_runs add column inspection_settings jsonb;
alter table study_runs add column inspection jsonb;
-- Runs started before: the settings version approved when their cleaning started, else (started
-- before the first approval known) the earliest approved version.
update study_runs r
   set (inspection_settings_version, inspection_settings) = (
     select v.version_number, v.content from controlled_versions v
      where v.facility_id = r.facility_id and v.document_type = 'CleaningInspectionSettings'
        and v.approved_at is not null
      order by (v.approved_at <= r.started_at) desc,
               case when v.approved_at <= r.started_at then v.approved_at end desc nulls last,
               v.approved_at
      limit 1)
 where r.started_at is not null;
set constraints all deferred;
