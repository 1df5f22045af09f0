-- One counter that moves whenever anything a request's access rests on changes: users, their
-- departments and grants, roles, facilities (tier, licence), and the end of a session (issue 16).
-- Each app instance keeps sessions, permissions and facility states in memory for as long as
-- the counter it last read stands, and reads it again at least every few seconds, so that every
-- instance on the database drops what a change made stale (server/http/access-cache.ts).
--
-- The counter moves at commit (deferred constraint triggers): a reader sees the new value only
-- with the change, never before, and the row is locked only for the instant of the commit, so
-- writers that touch these tables in different orders cannot deadlock on it. Once per
-- transaction is enough: the flag in a transaction-local setting skips the other rows.
create table access_epoch (
  id boolean primary key default true check (id),
  epoch bigint not null
);
insert into access_epoch (id, epoch) values (true, 1);

create function bump_access_epoch() returns trigger
language plpgsql as $$
begin
  if current_setting('carryover.access_epoch_bumped', true) is distinct from txid_current()::text then
    perform set_config('carryover.access_epoch_bumped', txid_current()::text, true);
    update access_epoch set epoch = epoch + 1;
  end if;
  return null;
end
$$;

create constraint trigger users_access_epoch after insert or update or delete on users
  deferrable initially deferred for each row execute function bump_access_epoch();
create constraint trigger departments_access_epoch after insert or update or delete on departments
  deferrable initially deferred for each row execute function bump_access_epoch();
create constraint trigger roles_access_epoch after insert or update or delete on roles
  deferrable initially deferred for each row execute function bump_access_epoch();
create constraint trigger user_facility_roles_access_epoch
  after insert or update or delete on user_facility_roles
  deferrable initially deferred for each row execute function bump_access_epoch();
create constraint trigger facilities_access_epoch after insert or update or delete on facilities
  deferrable initially deferred for each row execute function bump_access_epoch();
-- A session's idle clock (last_seen_at) moves every half minute and changes nobody's access.
create constraint trigger sessions_access_epoch after update of ended_at or delete on sessions
  deferrable initially deferred for each row execute function bump_access_epoch();
