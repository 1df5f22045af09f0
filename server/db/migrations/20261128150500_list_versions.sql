-- A facility's list version moves whenever a row of any of its tables is written: added,
-- edited, archived, restored, deleted or moved to another facility. An app instance keeps the
-- pages and total counts of unfiltered lists while the version they were read at stands,
-- reading the version in the same statement as the page (issue 16), so a list of ten rows costs
-- the same in a facility of a hundred rows as in one of ten thousand, and an unchanged page
-- costs one primary-key read.
--
-- The version moves at commit (deferred constraint triggers), as access_epoch does: a reader
-- sees it move only with the rows, and the row is locked only for the instant of the commit, so
-- writers that touch tables in different orders cannot deadlock on it. Each facility's version
-- moves once per transaction: the transaction-local setting lists the facilities already done.
create table facility_list_versions (
  facility_id integer primary key,
  list_version bigint not null
);

create function bump_facility_list_version() returns trigger
language plpgsql as $$
declare
  mark text := txid_current()::text || ':';
  done text := coalesce(current_setting('carryover.list_versions_bumped', true), '');
  f integer;
begin
  if left(done, length(mark)) is distinct from mark then
    done := mark || ',';
  end if;
  foreach f in array case tg_op
    when 'INSERT' then array[new.facility_id]
    when 'DELETE' then array[old.facility_id]
    else array[old.facility_id, new.facility_id]
  end loop
    if position(',' || f || ',' in done) = 0 then
      insert into facility_list_versions as v (facility_id, list_version) values (f, 1)
        on conflict (facility_id) do update set list_version = v.list_version + 1;
      done := done || f || ',';
    end if;
  end loop;
  perform set_config('carryover.list_versions_bumped', done, true);
  return null;
end
$$;

-- Every table with a facility and an archive state, as 20261128140100_active_rows_index.sql
-- names them; a table added later takes the same trigger (server/entities/list-totals.test.ts).
-- Its default order (lower(name), id) over the active rows gets an index, so that the first
-- page is read from the index, not sorted out of the whole facility.
do $$
declare
  t record;
begin
  for t in
    select c.table_name,
           exists (select 1 from information_schema.columns n
                    where n.table_schema = 'public' and n.table_name = c.table_name
                      and n.column_name = 'name') as named
      from information_schema.columns c
      join information_schema.tables tb
        on tb.table_schema = c.table_schema and tb.table_name = c.table_name and tb.table_type = 'BASE TABLE'
     where c.table_schema = 'public' and c.column_name = 'facility_id'
       and exists (select 1 from information_schema.columns a
                    where a.table_schema = 'public' and a.table_name = c.table_name
                      and a.column_name = 'archived_at')
     order by c.table_name
  loop
    execute format(
      'create constraint trigger %I after insert or update or delete on %I
         deferrable initially deferred for each row execute function bump_facility_list_version()',
      t.table_name || '_list_version', t.table_name);
    if t.named then
      execute format('create index %I on %I (facility_id, lower(name), id) where archived_at is null',
                     t.table_name || '_active_by_name', t.table_name);
    end if;
  end loop;
end
$$;
