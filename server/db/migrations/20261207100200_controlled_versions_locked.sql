-- What the signers saw stays as they saw it (21 CFR 11.10(a), 11.70; EU GMP Annex 11 §10): once
-- a version of a controlled record is submitted its content, title, number and record are fixed;
-- an Approved version may only become Deprecated (its deprecated_at set), a Deprecated one not
-- change at all, and no version is ever deleted. The trigger holds for every role: the owner
-- could switch it off (ALTER TABLE), which the integrity check of the records then shows
-- (server/records/record-integrity.ts).

-- Who moved a version last, written by the one versioned UPDATE (versioned-update.ts) and kept
-- in record_versions.recorded_by like every other record's author.
-- An earlier migration of the same upgrade may have written versions whose history rows are still
-- pending (a deferred trigger): they are kept first, as the other migrations that alter a table
-- do, until this one's triggers stand.
set constraints all immediate;
alter table controlled_versions add column updated_by integer references users (id);

create function controlled_version_guard() returns trigger
language plpgsql as $$
declare
  -- The owner's migrations and seeding functions (a facility's default policies, approved at
  -- once) may insert a version in any status; the app starts every version Being Built.
  by_owner boolean := pg_has_role(current_user,
    (select c.relowner from pg_class c where c.oid = tg_relid), 'MEMBER');
  refused text;
begin
  if tg_op = 'DELETE' then
    refused := 'a version of a controlled record is never deleted';
  elsif tg_op = 'INSERT' then
    if not by_owner and (new.status <> 'BeingBuilt' or new.approved_at is not null
        or new.deprecated_at is not null or new.submitted_at is not null) then
      refused := 'a new version starts Being Built';
    end if;
  elsif (new.facility_id, new.document_type, new.document_id, new.version_number,
         new.created_by, new.created_at)
        is distinct from (old.facility_id, old.document_type, old.document_id,
         old.version_number, old.created_by, old.created_at) then
    refused := 'which record and version a row holds never changes';
  elsif old.status = 'BeingBuilt' then
    if new.status <> 'BeingBuilt' and (new.content, new.title)
        is distinct from (old.content, old.title) then
      refused := 'content changes only while the version is being built';
    end if;
  elsif (new.content, new.title) is distinct from (old.content, old.title) then
    refused := format('the content of a version %s is fixed', old.status);
  elsif old.status in ('BeingReviewed', 'BeingApproved') then
    if new.status = 'Deprecated' then
      refused := 'a version being signed cannot be deprecated';
    end if;
  elsif (new.approved_at, new.signature_state, new.approval_steps, new.allow_self_approval,
         new.submitted_at)
        is distinct from (old.approved_at, old.signature_state, old.approval_steps,
         old.allow_self_approval, old.submitted_at) then
    refused := format('the approval of a version %s is fixed', old.status);
  elsif old.status = 'Approved' then
    if new.status not in ('Approved', 'Deprecated')
        or (new.status = 'Approved' and new.deprecated_at is not null) then
      refused := 'an Approved version may only become Deprecated';
    end if;
  elsif new.status <> 'Deprecated' or new.deprecated_at is distinct from old.deprecated_at then
    refused := 'a Deprecated version does not change';
  end if;
  if refused is not null then
    raise exception 'controlled_versions: % (% refused)', refused, tg_op using errcode = '42501';
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end
$$;

create trigger controlled_versions_locked before insert or update or delete on controlled_versions
  for each row execute function controlled_version_guard();

create function controlled_versions_no_truncate() returns trigger
language plpgsql as $$
begin
  raise exception 'controlled_versions: a version of a controlled record is never deleted'
    using errcode = '42501';
end
$$;
create trigger controlled_versions_no_truncate before truncate on controlled_versions
  for each statement execute function controlled_versions_no_truncate();
set constraints all deferred;

-- A facility's default policies and inspection settings are approved as they are made (their
-- version 1): the function that makes them runs as the owner, so that the app role, which
-- creates facilities, still cannot insert an Approved version of its own.
alter function ensure_controlled_rules(integer) security definer set search_path = public, pg_temp;
