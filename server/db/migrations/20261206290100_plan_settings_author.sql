-- The plan's settings are written through the one write path like every other record
-- (server/records/plan-record.ts): who changed them last is kept on the row, so each kept
-- version (record_versions.recorded_by) names its author as for every other record
-- (21 CFR 11.10(e)). A plan's row is made on its first edit with the defaults (an empty policy
-- reads as the default one).
alter table plan_settings
  add column updated_by integer references users (id),
  alter column password_policy set default '{}';
