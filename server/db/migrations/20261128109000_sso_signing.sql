-- Signatures by single sign-on users (issue 14): the signer re-authenticates at the provider
-- (prompt=login, max_age=0). A redirect says what it is for and, for a signature, whose it is.
alter table sso_logins
  add column purpose text not null default 'login' check (purpose in ('login', 'signature')),
  add column user_id integer references users (id);

-- The provider's proof of a fresh authentication, spent by one signature: kept as a hash,
-- bound to its user, valid until 60 seconds after the provider's auth_time.
create table sso_signing_proofs (
  proof_hash text primary key,
  user_id integer not null references users (id),
  auth_time timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index sso_signing_proofs_expires_at on sso_signing_proofs (expires_at);
