-- Issue 28: a password set again through a secret key an administrator issued (on an account
-- that already had one) ends the account's sessions and is announced to its owner and to the
-- system administrators (21 CFR 11.300(d)). The reset link a secret key is exchanged for says so.
alter table one_time_tokens add column from_secret_key boolean not null default false;
