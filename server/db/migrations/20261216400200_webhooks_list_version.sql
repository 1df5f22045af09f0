-- A write to a facility's webhooks moves its list version, so a cached list page of hooks is
-- never served stale (20261128150500_list_versions.sql; list-totals.test.ts checks every table).
create constraint trigger webhooks_list_version
  after insert or update or delete on webhooks
  deferrable initially deferred for each row execute function bump_facility_list_version();
