-- Issue 34: a list's search (ILIKE '%term%' on the fields its declaration names, see
-- server/entities/entity-store.ts) finds its rows from trigram indexes, not by reading every
-- row of the facility for the page and again for its total. PGlite loads pg_trgm
-- (server/db/pglite-worker.mjs); on a server where the owner may not create it, the lists
-- search as before, every row read, and PostgreSQL's log says why.
-- An earlier migration of the same upgrade may have left history rows pending (a deferred
-- trigger): they are kept first, as the other migrations that alter a table do.
set constraints all immediate;
do $$
begin
  create extension if not exists pg_trgm;
exception when insufficient_privilege or undefined_file or feature_not_supported then
  raise warning 'pg_trgm could not be created (%): list searches read every row', sqlerrm;
end
$$;

do $$
declare
  searched record;
begin
  if not exists (select 1 from pg_extension where extname = 'pg_trgm') then
    return;
  end if;
  for searched in
    select s.table_name, s.column_name
      from (values
      ('actives', 'cas_number'),
      ('actives', 'external_id'),
      ('actives', 'name'),
      ('equipment', 'external_id'),
      ('equipment', 'name'),
      ('equipment_groups', 'name'),
      ('historical_studies', 'name'),
      ('historical_studies', 'notes'),
      ('mac_formulas', 'expression'),
      ('mac_formulas', 'name'),
      ('product_groups', 'name'),
      ('productions', 'external_id'),
      ('productions', 'name'),
      ('products', 'external_id'),
      ('products', 'name'),
      ('protocols', 'name'),
      ('protocols', 'protocol_number'),
      ('sampling_types', 'name'),
      ('selection_criteria', 'criteria_id'),
      ('selection_criteria', 'name')
      ) as s(table_name, column_name)
      -- A declaration's table or field that this schema does not have is no index to make.
      join information_schema.columns c
        on c.table_schema = 'public' and c.table_name = s.table_name and c.column_name = s.column_name
  loop
    execute format('create index %I on %I using gin (%I gin_trgm_ops)',
                   searched.table_name || '_search_' || searched.column_name,
                   searched.table_name, searched.column_name);
  end loop;
end
$$;
set constraints all deferred;
