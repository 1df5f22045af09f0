-- Restores of this database from a backup (server/db/backup). A restored copy takes a database
-- id of its own, so that the anchors it signs are its own; the anchors its original signed stay
-- valid for the rows the backup held, up to each chain's head when the backup was taken
-- (`heads`: [[chain, seq, hash], …]). The row is signed with the key outside the database
-- (`hmac`), so that a row written by someone without that key cannot make verify read past
-- anchors (21 CFR 11.10(e), EU GMP Annex 11 §7.2 and §9).
create table database_restores (
  id bigint generated always as identity primary key,
  database_id uuid not null,
  previous_database_id uuid not null,
  backup text not null,
  backup_taken_at timestamptz not null,
  restored_at timestamptz not null default now(),
  heads jsonb not null,
  hmac text not null
);

-- Append-only like the audit trail: the app role may only read and add rows.
create trigger database_restores_no_update before update or delete on database_restores
  for each row execute function audit_log_reject_change();
create trigger database_restores_no_truncate before truncate on database_restores
  for each statement execute function audit_log_reject_change();
