-- Fixed-window request counters of the rate limits, kept in the database so that every app
-- instance serving it counts together. Unlogged: a crash may forget a window of counts, which is
-- harmless, and the write each request makes costs no WAL.
create unlogged table rate_limit_counters (
  key text primary key,
  window_started_at timestamptz not null,
  hits integer not null
);
