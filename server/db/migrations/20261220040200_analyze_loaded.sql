set constraints all immediate;
-- An import gathers the statistics of the tables it loaded in bulk (master-import.ts). Before
-- PostgreSQL 17's MAINTAIN privilege only a table's owner may ANALYZE it, and on a server the
-- app's role owns nothing (README, "Two database roles"): this function runs as the owner that
-- migrated, for the app's own tables only. ANALYZE reads rows and writes statistics, never data.
create or replace function analyze_loaded(target regclass) returns void
language plpgsql security definer set search_path = public, pg_temp as $$
begin
  if (select relnamespace from pg_class where oid = target) <> 'public'::regnamespace then
    raise exception 'analyze_loaded: % is not a table of Carryover', target;
  end if;
  execute format('analyze %s', target);
end $$;
set constraints all deferred;
