-- Issue 26: which version of the release rules a run's stored verdict and release flag were
-- computed under. Runs stored under older rules are judged again at start (run-reconcile.ts),
-- each change audited, so no screen answers a flag the current rules would not give.
alter table study_runs add column rules_version integer not null default 0;
