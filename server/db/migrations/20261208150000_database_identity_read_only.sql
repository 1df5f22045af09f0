-- The database id names this database's anchors and signature bindings outside it
-- (audit-anchor.ts, signature-binding.ts). An app role that could change it would hide every
-- anchor from verify, so it only reads it; the owner sets it (a restore gives its copy an id of
-- its own). The grants so far stay as they are, under another name, as in 20261125100100.
alter function grant_app_role(text) rename to grant_app_role_with_jobs;
create function grant_app_role(app text) returns void
language plpgsql as $$
begin
  perform grant_app_role_with_jobs(app);
  if app is null or app = '' or app = current_user then
    return;
  end if;
  execute format('revoke all on database_identity from %I', app);
  execute format('grant select on database_identity to %I', app);
end
$$;
revoke all on function grant_app_role(text) from public;
