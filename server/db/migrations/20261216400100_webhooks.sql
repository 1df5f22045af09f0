-- Webhooks (issue 33): the facility's events posted to other systems. A hook is a versioned
-- record (url, events, its secret encrypted with SETTINGS_SECRET_KEY so that the worker can sign
-- with it); the secret is left out of the history rows.
create table webhooks (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  url text not null,
  events text[] not null check (cardinality(events) > 0),
  secret_encrypted text not null,
  archived_at timestamptz,
  archived_by integer references users (id),
  archive_reason text,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id)
);
create index webhooks_facility on webhooks (facility_id, id);
select keep_record_versions('webhooks', array['secret_encrypted']);

-- The outbox: one row per event, written in the transaction of the change that caused it, and
-- only while a live hook of the facility asks for that event (no hook, no row).
create table webhook_events (
  id bigint generated always as identity primary key,
  facility_id integer not null references facilities (id),
  event text not null,
  record_type text not null,
  record_id integer not null,
  payload jsonb not null,
  occurred_at timestamptz not null default now()
);

-- One delivery per hook and event, made with the event. `pending` deliveries are due at
-- next_attempt_at; a worker claims one by moving next_attempt_at past its timeout.
create table webhook_deliveries (
  id bigint generated always as identity primary key,
  webhook_id integer not null references webhooks (id),
  event_id bigint not null references webhook_events (id),
  facility_id integer not null references facilities (id),
  record_key text not null,
  state text not null default 'pending' check (state in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  delivered_at timestamptz,
  unique (webhook_id, event_id)
);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'pending';
create index webhook_deliveries_order
  on webhook_deliveries (webhook_id, record_key, event_id) where state = 'pending';
create index webhook_deliveries_log on webhook_deliveries (webhook_id, id);

-- Every try of a delivery, for the delivery log.
create table webhook_attempts (
  id bigint generated always as identity primary key,
  delivery_id bigint not null references webhook_deliveries (id),
  attempt integer not null,
  attempted_at timestamptz not null default now(),
  status integer,
  error text,
  duration_ms integer not null
);
create index webhook_attempts_delivery on webhook_attempts (delivery_id, attempt);
