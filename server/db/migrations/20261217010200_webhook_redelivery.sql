-- A delivery given up can be sent again by an administrator (issue 33). Its tries keep their
-- numbers in the log; the retry waits count again from the redelivery, which is the number of
-- tries made before it.
alter table webhook_deliveries add column retries_from integer not null default 0;

-- The daily removal of delivered events past their retention reads deliveries by when they were
-- delivered.
create index webhook_deliveries_delivered on webhook_deliveries (delivered_at)
  where state = 'delivered';

-- An event is removed once no delivery of it is left: found by its deliveries.
create index webhook_deliveries_event on webhook_deliveries (event_id);
