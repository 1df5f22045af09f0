-- Files attached to master data: reference documents of analytical methods and actives, and the
-- files of legacy documents. The content is kept in the database so that a backup of the
-- database is a backup of the documents. A replaced document is never overwritten: it stays,
-- archived with the reason of the edit and the id of the document that superseded it.

create table attachments (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  owner_kind text not null,
  owner_id integer not null,
  file_name text not null,
  media_type text not null,
  file_type text not null,
  size_bytes integer not null check (size_bytes >= 0),
  sha256 text not null,
  content bytea not null,
  uploaded_at timestamptz not null default now(),
  uploaded_by integer references users (id),
  archived_at timestamptz,
  archived_by integer references users (id),
  archive_reason text,
  superseded_by integer references attachments (id)
);
create index attachments_owner_idx on attachments (facility_id, owner_kind, owner_id);
-- At most one current document per record.
create unique index attachments_current_key on attachments (facility_id, owner_kind, owner_id)
  where archived_at is null;

-- What was uploaded stays as uploaded: only the archive columns may change, and nothing is deleted.
create function attachments_keep_content() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    raise exception 'attachments are never deleted';
  end if;
  if new.content is distinct from old.content or new.sha256 is distinct from old.sha256
     or new.file_name is distinct from old.file_name or new.owner_id is distinct from old.owner_id
     or new.owner_kind is distinct from old.owner_kind or new.facility_id is distinct from old.facility_id then
    raise exception 'an attachment''s file is never changed';
  end if;
  return new;
end;
$$;

create trigger attachments_keep_content before update or delete on attachments
  for each row execute function attachments_keep_content();
