-- The HBEL library's rows carry the facility whose approval policy signs them and an archive
-- state: like every such table, a write moves that facility's list version, so a list page or
-- total cached under the version is never served stale (20261128150500_list_versions.sql).
create constraint trigger hbel_monographs_list_version
  after insert or update or delete on hbel_monographs
  deferrable initially deferred for each row execute function bump_facility_list_version();
