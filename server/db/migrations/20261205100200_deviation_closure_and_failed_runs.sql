-- Deviations closed with QA approval, a decision on each failure, and what a failed run does to
-- a study (core/verification/README.md, "Deviation" and "Study").

-- The conclusion QA approves when it signs the closure (21 CFR 211.192).
alter table deviations add column conclusion text;

-- A deviation becomes a controlled record (document type Deviation): its closure is proposed
-- (Submit) and approved by QA (Approve). Every existing deviation is its version 1 Being Built:
-- none was approved by QA, so none is shown as approved. One already Closed stays closed (its
-- run went on under the rule of its day); an edit of it reopens it under the new rule.
insert into controlled_versions (facility_id, document_type, document_id, version_number, status,
    signature_state, content, title, created_by, created_at, updated_at)
select facility_id, 'Deviation', id, 1, 'BeingBuilt', null,
       jsonb_build_object('number', 'DEV-' || lpad(seq::text, 4, '0'), 'runId', run_id,
         'resultId', result_id, 'samplingLocationId', sampling_location_id, 'kind', kind,
         'title', title, 'description', description, 'rootCause', root_cause,
         'conclusion', null, 'capaReference', capa_reference, 'invalidatesRun', invalidates_run),
       'DEV-' || lpad(seq::text, 4, '0') || ' ' || title, created_by, created_at, updated_at
  from deviations;

-- What a completed failed run does to the study: 'failStudy' (the study is Failed) or
-- 'resetCount' (the count of consecutive passes starts again). Unset on a protocol: the study
-- type decides when the study starts (Validation: failStudy, others: resetCount).
alter table protocols add column failed_run_policy text
  check (failed_run_policy in ('failStudy', 'resetCount'));

-- The rule a study follows, fixed when it starts from its pinned protocol version. Studies
-- started before the choice existed keep the rule they were approved and run under
-- (resetCount): re-judging a signed-off study after the fact would turn a Validated study into
-- a Failed one without anyone deciding it (EU GMP Annex 11 §10: changes under control).
alter table studies add column failed_run_policy text not null default 'resetCount'
  check (failed_run_policy in ('failStudy', 'resetCount'));
alter table studies alter column failed_run_policy drop default;
