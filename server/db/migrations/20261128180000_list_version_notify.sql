-- An app instance on a PostgreSQL server keeps the list version it last read for as long as
-- the server has not announced a new one (server/db/pg-channel-watch.ts): every move of a
-- facility's list version is announced on the channel facility_list_versions, at commit, to
-- every instance listening, whichever client wrote the rows.
create function notify_facility_list_version() returns trigger
language plpgsql as $$
begin
  perform pg_notify('facility_list_versions', new.facility_id::text);
  return null;
end
$$;

create trigger facility_list_versions_notify after insert or update on facility_list_versions
  for each row execute function notify_facility_list_version();
