-- Every version of every record (server/records/README.md, "Versions of every record"): after
-- each insert and update of a row of a table with a `version` column, the row as it now is.
-- The state of any record at any past time can then be read back (…/{id}/versions, asOf=).
-- Append-only like the audit trail: the app role may INSERT and SELECT only.

create table record_versions (
  id bigserial primary key,
  table_name text not null,
  record_id integer not null,
  facility_id integer,
  version integer not null,
  row_data jsonb not null,
  -- clock_timestamp(), not now(): two changes in one transaction get two ordered times, taken
  -- as it commits (the trigger is deferred).
  recorded_at timestamptz not null default clock_timestamp(),
  recorded_by integer
);
-- One index serves the versions of a record and the asOf reads of a facility's records; each
-- further index would add to the cost of every write.
create index record_versions_lookup on record_versions (table_name, facility_id, record_id, recorded_at);

-- The rejection names the table it guards (it guards the audit trail, record_versions and later
-- append-only tables); append_only_tables() finds every table that uses it.
create or replace function audit_log_reject_change() returns trigger
language plpgsql as $$
begin
  raise exception '% is append-only: % is not allowed', tg_table_name, tg_op
    using errcode = '42501';
end
$$;

create trigger record_versions_no_update before update or delete on record_versions
  for each row execute function audit_log_reject_change();
create trigger record_versions_no_truncate before truncate on record_versions
  for each statement execute function audit_log_reject_change();

-- One jsonb of the row, read for its key (the trigger's first argument: id, or plan_id for
-- plan_settings), facility, version and author; a table without facility_id or updated_by
-- gets nulls there. The further arguments name columns that are no part of the record (a
-- password hash, sign-in bookkeeping): they are left out, and an update that changes nothing
-- else keeps no version, so signing in does not add a version of the user.
create function record_version_keep() returns trigger
language plpgsql as $$
declare
  data jsonb := to_jsonb(new) - tg_argv[1:];
begin
  if tg_op = 'UPDATE' and data = to_jsonb(old) - tg_argv[1:] then
    return null;
  end if;
  insert into record_versions (table_name, record_id, facility_id, version, row_data, recorded_by)
  values (tg_table_name, (data->>tg_argv[0])::int, (data->>'facility_id')::int,
          (data->>'version')::int, data, (data->>'updated_by')::int);
  return null;
end
$$;

-- Keeps the versions of a table: the trigger, and one version of each row it already holds
-- (as of its last change, the earliest state known). A migration that creates a table with a
-- `version` column calls `select keep_record_versions('the_table');` (the test
-- record-versions-triggers.test.ts fails otherwise); `left_out` names columns not kept.
create function keep_record_versions(target regclass, left_out text[] default '{}') returns void
language plpgsql as $$
declare
  has_updated_at boolean;
  has_created_at boolean;
  at_expr text;
  key_column text;
begin
  -- The record's key: its one-column integer primary key.
  select min(a.attname) into key_column
    from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
   where i.indrelid = target and i.indisprimary and array_length(i.indkey, 1) = 1
     and a.atttypid = 'integer'::regtype;
  if key_column is null then
    raise exception 'keep_record_versions: % has no one-column integer primary key', target;
  end if;
  select bool_or(attname = 'updated_at'), bool_or(attname = 'created_at')
    into has_updated_at, has_created_at
    from pg_attribute where attrelid = target and attnum > 0 and not attisdropped;
  at_expr := case when has_updated_at then 'coalesce(t.updated_at, clock_timestamp())'
                  when has_created_at then 'coalesce(t.created_at, clock_timestamp())'
                  else 'clock_timestamp()' end;
  execute format(
    'insert into record_versions (table_name, record_id, facility_id, version, row_data, recorded_at, recorded_by)
     select %L, (d->>%L)::int, (d->>''facility_id'')::int, (d->>''version'')::int, d, %s,
            (d->>''updated_by'')::int
       from %s t cross join lateral (select to_jsonb(t) - %L::text[] as d) kept order by t.%I',
    (select relname from pg_class where oid = target), key_column, at_expr, target, left_out,
    key_column);
  -- Deferred to the commit: each change is kept with the row as that change left it, but
  -- recorded_at is taken as the transaction commits, so an asOf read answers with what was
  -- committed then (not with a change whose transaction was still open at that moment).
  execute format(
    'create constraint trigger keep_record_versions after insert or update on %s
       deferrable initially deferred
       for each row execute function record_version_keep(%s)', target,
    (select string_agg(quote_literal(a), ', ') from unnest(key_column || left_out) a));
end
$$;

select keep_record_versions(format('%I', c.table_name)::regclass,
         case c.table_name when 'users' then array['password_hash', 'failed_attempts', 'locked_until']
                           else '{}' end)
  from information_schema.columns c
  join information_schema.tables t
    on t.table_schema = c.table_schema and t.table_name = c.table_name
 where c.table_schema = 'public' and c.column_name = 'version'
   and t.table_type = 'BASE TABLE' and c.table_name <> 'record_versions'
 order by c.table_name;
