-- Issue 34: a list page sorted by name or by creation is read from an index of
-- that order, not sorted out of every active row of the facility. A list sorted by a column
-- orders ties by id in the same direction (server/entities/entity-store.ts), so each index
-- below is that whole order, read forwards or backwards, and the page is its next rows; the
-- default order (lower(name), id) has its index since 20261128150500_list_versions.sql, made
-- again here to hold the name.
-- Not updated_at: every write changes it, and an index on it would end the heap-only updates
-- of every table. Every table with a facility and an archive state, as that migration names them.
-- An earlier migration of the same upgrade may have left history rows pending (a deferred
-- trigger): they are kept first, as the other migrations that alter a table do.
set constraints all immediate;
do $$
declare
  t record;
  col text;
begin
  for t in
    select c.table_name
      from information_schema.columns c
      join information_schema.tables tb
        on tb.table_schema = c.table_schema and tb.table_name = c.table_name and tb.table_type = 'BASE TABLE'
     where c.table_schema = 'public' and c.column_name = 'facility_id'
       and exists (select 1 from information_schema.columns a
                    where a.table_schema = 'public' and a.table_name = c.table_name
                      and a.column_name = 'archived_at')
     order by c.table_name
  loop
    foreach col in array array['name', 'created_at'] loop
      if exists (select 1 from information_schema.columns n
                  where n.table_schema = 'public' and n.table_name = t.table_name
                    and n.column_name = col) then
        execute format('create index %I on %I (facility_id, %I, id) where archived_at is null',
                       t.table_name || '_sort_' || col, t.table_name, col);
      end if;
    end loop;
    -- The default order's index carries the name too: a page's ids are then read from the index
    -- alone (an index of lower(name) without name cannot answer it without the table).
    if to_regclass(t.table_name || '_active_by_name') is not null then
      execute format('drop index %I', t.table_name || '_active_by_name');
      execute format('create index %I on %I (facility_id, lower(name), id) include (name)
                        where archived_at is null', t.table_name || '_active_by_name', t.table_name);
    end if;
  end loop;
end
$$;
set constraints all deferred;
