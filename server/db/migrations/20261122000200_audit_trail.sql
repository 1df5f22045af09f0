-- The audit trail (21 CFR 11.10(e), EU GMP Annex 11 §9): append-only, written in the same
-- transaction as the change it records, time from the database clock, hash-chained per chain
-- (a facility, or a plan for events that belong to no facility).

create table audit_chain_heads (
  chain text primary key,
  seq bigint not null,
  hash text not null
);

create table audit_log (
  id bigint generated always as identity primary key,
  chain text not null,
  seq bigint not null,
  plan_id integer,
  facility_id integer,
  user_id integer,
  user_name text,
  at timestamptz not null default now(),
  domain text not null,
  action text not null,
  entity_id text,
  reason text,
  old_values jsonb,
  new_values jsonb,
  ip text,
  user_agent text,
  request_id text,
  prev_hash text not null,
  hash text not null,
  unique (chain, seq)
);
create index audit_log_facility_at on audit_log (facility_id, at desc);
create index audit_log_plan_at on audit_log (plan_id, at desc);

create function audit_row_text(r audit_log) returns text
language sql immutable as $$
  select concat_ws(chr(31),
    r.chain, r.seq::text, coalesce(r.plan_id::text, ''), coalesce(r.facility_id::text, ''),
    coalesce(r.user_id::text, ''), coalesce(r.user_name, ''),
    to_char(r.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    r.domain, r.action, coalesce(r.entity_id, ''), coalesce(r.reason, ''),
    coalesce(r.old_values::text, ''), coalesce(r.new_values::text, ''),
    coalesce(r.ip, ''), coalesce(r.user_agent, ''), coalesce(r.request_id, ''), r.prev_hash)
$$;

-- The chain head row is taken FOR UPDATE, so concurrent writers queue on it and the sequence
-- never forks (an ORDER BY id DESC LIMIT 1 lookup, or an advisory lock after bigserial, does).
create function audit_log_chain() returns trigger
language plpgsql as $$
declare
  head audit_chain_heads;
begin
  new.chain := coalesce(new.chain,
    case when new.facility_id is not null then 'facility:' || new.facility_id
         when new.plan_id is not null then 'plan:' || new.plan_id
         else 'system' end);
  new.at := now();
  insert into audit_chain_heads (chain, seq, hash) values (new.chain, 0, repeat('0', 64))
    on conflict (chain) do nothing;
  select * into head from audit_chain_heads where chain = new.chain for update;
  new.seq := head.seq + 1;
  new.prev_hash := head.hash;
  new.hash := encode(sha256(convert_to(audit_row_text(new), 'UTF8')), 'hex');
  update audit_chain_heads set seq = new.seq, hash = new.hash where chain = new.chain;
  return new;
end
$$;

create trigger audit_log_chain before insert on audit_log
  for each row execute function audit_log_chain();

create function audit_log_reject_change() returns trigger
language plpgsql as $$
begin
  raise exception 'audit_log is append-only: % is not allowed', tg_op
    using errcode = '42501';
end
$$;

create trigger audit_log_no_update before update or delete on audit_log
  for each row execute function audit_log_reject_change();
create trigger audit_log_no_truncate before truncate on audit_log
  for each statement execute function audit_log_reject_change();

-- Recomputes a chain; returns the first seq whose hash, predecessor or numbering is wrong,
-- or null when the chain is whole.
create function audit_verify_chain(p_chain text) returns table (broken_seq bigint, problem text)
language plpgsql stable as $$
declare
  r audit_log;
  expected_seq bigint := 0;
  expected_prev text := repeat('0', 64);
begin
  for r in select * from audit_log where chain = p_chain order by seq loop
    expected_seq := expected_seq + 1;
    if r.seq <> expected_seq then
      broken_seq := expected_seq; problem := 'gap'; return next; return;
    end if;
    if r.prev_hash <> expected_prev then
      broken_seq := r.seq; problem := 'prev_hash'; return next; return;
    end if;
    if r.hash <> encode(sha256(convert_to(audit_row_text(r), 'UTF8')), 'hex') then
      broken_seq := r.seq; problem := 'hash'; return next; return;
    end if;
    expected_prev := r.hash;
  end loop;
  if exists (select 1 from audit_chain_heads h where h.chain = p_chain
             and (h.seq <> expected_seq or h.hash <> expected_prev)) then
    broken_seq := expected_seq + 1; problem := 'head'; return next;
  end if;
  return;
end
$$;
