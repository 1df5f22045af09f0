-- Issue 28: parallel sign-ins and signatures with the right password were refused as locked,
-- because each attempt was counted as a failure before its password was checked. Failures are
-- now counted only when a password is wrong; the checks still under way are counted apart, so
-- that failed + in flight never exceeds the policy's limit (no burst of guesses gets more than
-- the limit checked), and an attempt beyond it waits for a place instead of being refused.
-- A count whose latest check started over a minute ago is left over from a stopped process.
alter table users
  add column password_checks_in_flight integer not null default 0,
  add column password_check_started_at timestamptz;

-- Sign-in bookkeeping, like failed_attempts: no part of the user's record and its versions.
drop trigger keep_record_versions on users;
create constraint trigger keep_record_versions after insert or update on users
  deferrable initially deferred
  for each row execute function record_version_keep(
    'id', 'password_hash', 'failed_attempts', 'locked_until', 'password_checks_in_flight',
    'password_check_started_at');
