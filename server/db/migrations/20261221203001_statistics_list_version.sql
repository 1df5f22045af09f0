-- Issue 34: the ongoing verification statistics are kept per state of a facility's data and
-- read again only once its list version moved (server/modules/verification/statistics/
-- statistics-cache.ts). The version moves with a write to any table with a facility and an
-- archive state (20261128150500_list_versions.sql); the results, runs, studies and the
-- facility's rules have no archive state, so a write to them moves it from here on too, at
-- commit, by whatever path it comes (a retest, an invalidated run, an approved investigation,
-- the verification settings, or SQL from outside the app).
set constraints all immediate;
do $$
declare
  t text;
begin
  foreach t in array array['sample_results', 'microbial_results', 'study_runs', 'studies',
                           'facility_rules'] loop
    execute format(
      'create constraint trigger %I after insert or update or delete on %I
         deferrable initially deferred for each row execute function bump_facility_list_version()',
      t || '_list_version', t);
  end loop;
end
$$;
set constraints all deferred;
