-- Ongoing verification (issue 12, core/verification/README.md): the facility's statistics
-- thresholds are one facility rule document (kind VerificationSettings, rule_key ''), and a
-- historical study result's date is kept as the YYYY-MM-DD text its declared record reads and
-- writes (as historical_studies.completed_date is). The declared records write an unset boolean
-- as null, so the two flags take null for "no" (readers treat null as false). Migrations run in one transaction: deferred
-- version triggers pending on these tables would make ALTER TABLE refuse, so they fire first.
set constraints all immediate;
alter table facility_rules drop constraint facility_rules_kind_check;
alter table facility_rules add constraint facility_rules_kind_check
  check (kind in ('MicrobialPolicy', 'InspectionSettings', 'ApprovalPolicy', 'RiskGoal',
    'VerificationSettings'));
alter table historical_study_results alter column taken_at type text
  using to_char(taken_at, 'YYYY-MM-DD');
alter table historical_study_results alter column censored_below drop not null;
-- Declared records list by name: a historical result's name is its sample reference in the report.
alter table historical_study_results add column name text not null default '';
alter table historical_study_results alter column name drop default;
alter table historical_studies alter column count_in_statistics drop not null;
set constraints all deferred;
