-- The chain head exists after a chain's first row: look it up first and create it only when
-- missing, one statement fewer for every audited change (bulk imports write thousands).
create or replace function audit_log_chain() returns trigger
language plpgsql as $$
declare
  head audit_chain_heads;
begin
  new.chain := coalesce(new.chain,
    case when new.facility_id is not null then 'facility:' || new.facility_id
         when new.plan_id is not null then 'plan:' || new.plan_id
         else 'system' end);
  new.at := now();
  select * into head from audit_chain_heads where chain = new.chain for update;
  if not found then
    insert into audit_chain_heads (chain, seq, hash) values (new.chain, 0, repeat('0', 64))
      on conflict (chain) do nothing;
    select * into head from audit_chain_heads where chain = new.chain for update;
  end if;
  new.seq := head.seq + 1;
  new.prev_hash := head.hash;
  new.hash := encode(sha256(convert_to(audit_row_text(new), 'UTF8')), 'hex');
  update audit_chain_heads set seq = new.seq, hash = new.hash where chain = new.chain;
  return new;
end
$$;
