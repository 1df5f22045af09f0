-- Issue 32: the API productions' lists (api-productions, api-equipment, api-products) search
-- their declared fields (ILIKE '%term%', server/entities/entity-store.ts) from trigram indexes,
-- as the other searched lists do (20261218050200_search_trigrams.sql), without a pending list
-- (20261220040100_search_trigrams_no_pending.sql). Without pg_trgm (a server where the owner may
-- not create it) they search as before, every row of the facility read.
-- An earlier migration of the same upgrade may have left history rows pending (a deferred
-- trigger): they are kept first, as the other migrations that alter a table do.
set constraints all immediate;
do $$
begin
  if not exists (select 1 from pg_extension where extname = 'pg_trgm') then
    return;
  end if;
  create index api_productions_search_name on api_productions
    using gin (name gin_trgm_ops) with (fastupdate = off);
  create index api_process_steps_search_name on api_process_steps
    using gin (name gin_trgm_ops) with (fastupdate = off);
  create index api_step_substances_search_note on api_step_substances
    using gin (note gin_trgm_ops) with (fastupdate = off);
end
$$;
set constraints all deferred;
