-- Every list answers with its total (spec: page and total count), counted over the facility's
-- active rows. An index of just those rows lets PostgreSQL count them from the index alone
-- instead of visiting each row to see whether it is archived (issue 16).
do $$
declare
  t record;
begin
  for t in
    select c.table_name from information_schema.columns c
      join information_schema.tables tb
        on tb.table_schema = c.table_schema and tb.table_name = c.table_name and tb.table_type = 'BASE TABLE'
     where c.table_schema = 'public' and c.column_name = 'facility_id'
       and exists (select 1 from information_schema.columns a
                    where a.table_schema = 'public' and a.table_name = c.table_name
                      and a.column_name = 'archived_at')
     order by c.table_name
  loop
    execute format('create index %I on %I (facility_id) where archived_at is null',
                   t.table_name || '_active', t.table_name);
  end loop;
end
$$;
