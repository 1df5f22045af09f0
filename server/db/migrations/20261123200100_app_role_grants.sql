-- Two roles on a PostgreSQL server (21 CFR 11.10(e), EU GMP Annex 11 §9): the owner runs these
-- migrations and owns every table; the app serves with least privilege. The app may read and
-- write ordinary tables, but only INSERT and SELECT the append-only ones, and it owns nothing,
-- so ALTER, DROP, DISABLE TRIGGER and TRUNCATE fail for it with 42501.

-- The chain trigger moves the chain head, which the app may not UPDATE: it runs as the owner.
alter function audit_log_chain() security definer set search_path = public, pg_temp;

-- Which database the anchors written outside it (audit-anchor.ts) belong to.
create table database_identity (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now()
);
insert into database_identity default values;

-- Tables whose rows the database refuses to change: those guarded by the audit trail's trigger
-- (a later append-only table, such as signatures, joins by using the same trigger function) and
-- the chain heads, which only the owner's trigger moves.
create function append_only_tables() returns setof regclass
language sql stable as $$
  select distinct t.tgrelid::regclass from pg_trigger t
   where t.tgfoid = 'audit_log_reject_change'::regproc
  union
  select 'audit_chain_heads'::regclass
$$;

-- Grants the app role what it needs, now and for tables the owner creates later. The migration
-- runner calls it after every run with DATABASE_URL's role, so it also repairs grants when the
-- app role changes. With one role (PGlite, or one URL) there is nothing to grant.
create function grant_app_role(app text) returns void
language plpgsql as $$
declare
  t regclass;
begin
  if app is null or app = '' or app = current_user then
    return;
  end if;
  execute format('grant usage on schema public to %I', app);
  execute format('grant select, insert, update, delete on all tables in schema public to %I', app);
  execute format('grant usage, select on all sequences in schema public to %I', app);
  execute format('alter default privileges in schema public
    grant select, insert, update, delete on tables to %I', app);
  execute format('alter default privileges in schema public
    grant usage, select on sequences to %I', app);
  for t in select * from append_only_tables() loop
    execute format('revoke all on %s from %I', t, app);
    execute format('grant select, insert on %s to %I', t, app);
  end loop;
  execute format('revoke all on function grant_app_role(text) from %I', app);
end
$$;
revoke all on function grant_app_role(text) from public;

-- Whether the connected role can change the audit trail by any means: owning it or being able
-- to SET ROLE to its owner (ALTER, DROP, DISABLE TRIGGER), a privilege to change its rows, or
-- superuser powers (session_replication_role switches triggers off).
create function audit_trail_protected() returns boolean
language sql stable as $$
  select not exists (
    select 1 from append_only_tables() t
      join pg_class c on c.oid = t
     where pg_has_role(current_user, c.relowner, 'MEMBER')
        or has_table_privilege(current_user, t, 'UPDATE')
        or has_table_privilege(current_user, t, 'DELETE')
        or has_table_privilege(current_user, t, 'TRUNCATE')
        or has_table_privilege(current_user, t, 'TRIGGER'))
    and not exists (
      select 1 from pg_roles r where r.rolname = current_user and (r.rolsuper or r.rolbypassrls))
$$;
