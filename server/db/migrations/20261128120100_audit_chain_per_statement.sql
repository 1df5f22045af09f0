-- The chain head moves once a statement, not once a row (issue 16). Updating the one head row
-- for every audit row left a version of it per row in the transaction, and each lookup walked
-- them all: a bulk import's statements got slower row by row (quadratic).
--
-- Each row still takes its seq and prev_hash from its predecessor and gets the same hash, so
-- chains written before this verify as they did and audit_verify_chain is unchanged. The
-- predecessor is the chain's last row in audit_log (an index lookup that sees rows an earlier
-- row of the same statement inserted); the head row is locked FOR UPDATE as before, so
-- concurrent writers still queue on it and the chain never forks. Locking a row this
-- transaction already holds changes nothing on disk, so only a statement's first row of a chain
-- pays for it. After the statement, its last row of each chain moves the head.
create or replace function audit_log_chain() returns trigger
language plpgsql security definer set search_path = public, pg_temp as $$
declare
  last_seq bigint;
  last_hash text;
begin
  new.chain := coalesce(new.chain,
    case when new.facility_id is not null then 'facility:' || new.facility_id
         when new.plan_id is not null then 'plan:' || new.plan_id
         else 'system' end);
  new.at := now();
  perform from audit_chain_heads where chain = new.chain for update;
  if not found then
    insert into audit_chain_heads (chain, seq, hash) values (new.chain, 0, repeat('0', 64))
      on conflict (chain) do nothing;
    perform from audit_chain_heads where chain = new.chain for update;
  end if;
  -- Read after the lock: in READ COMMITTED each query here takes a new snapshot, so it sees
  -- the rows of the writer that held the head before.
  select l.seq, l.hash into last_seq, last_hash from audit_log l
   where l.chain = new.chain order by l.seq desc limit 1;
  new.seq := coalesce(last_seq, 0) + 1;
  new.prev_hash := coalesce(last_hash, repeat('0', 64));
  new.hash := encode(sha256(convert_to(audit_row_text(new), 'UTF8')), 'hex');
  return new;
end
$$;

-- Runs as the owner, like audit_log_chain: the app role may not UPDATE the heads.
create function audit_log_advance_heads() returns trigger
language plpgsql security definer set search_path = public, pg_temp as $$
begin
  update audit_chain_heads h set seq = n.seq, hash = n.hash
    from (select distinct on (chain) chain, seq, hash from new_rows order by chain, seq desc) n
   where h.chain = n.chain;
  return null;
end
$$;

create trigger audit_log_advance_heads after insert on audit_log
  referencing new table as new_rows
  for each statement execute function audit_log_advance_heads();
