-- Issue 34: a list's search reads its trigram index (20261218050200_search_trigrams.sql) without
-- a pending list. A GIN index keeps new entries in an unsorted pending list until a vacuum (or
-- 4 MB of them) moves them into the index, and every search reads that whole list: after an
-- import of 10,000 rows, on a server whose autovacuum had not yet run (or is off), the search's
-- index cost more than reading every row of the facility, so it was never chosen. Without the
-- pending list a write adds its few trigrams to the index at once (a record is written far less
-- often than its list is searched), and the entries already pending are moved in here.
-- An earlier migration of the same upgrade may have left history rows pending (a deferred
-- trigger): they are kept first, as the other migrations that alter a table do.
set constraints all immediate;
do $$
declare
  searched record;
begin
  for searched in
    select c.oid, c.relname
      from pg_index i
      join pg_class c on c.oid = i.indexrelid
      join pg_namespace n on n.oid = c.relnamespace
      join pg_am am on am.oid = c.relam
     where n.nspname = 'public' and am.amname = 'gin'
       and exists (select 1 from pg_opclass o
                    where o.oid = any (i.indclass::oid[]) and o.opcname = 'gin_trgm_ops')
     order by c.relname
  loop
    execute format('alter index %I set (fastupdate = off)', searched.relname);
    perform gin_clean_pending_list(searched.oid::regclass);
  end loop;
end
$$;
set constraints all deferred;
