-- A create sent with an Idempotency-Key: the first answer is kept for 24 hours, so that a retry
-- with the same key and body replays it instead of creating a second record. The row is written
-- in the transaction that creates the record, so both commit or neither does.
create table idempotency_keys (
  user_id integer not null references users (id) on delete cascade,
  key text not null,
  request_hash text not null,
  status_code integer,
  response jsonb,
  created_at timestamptz not null default now(),
  primary key (user_id, key)
);

create index idempotency_keys_created_at on idempotency_keys (created_at);
