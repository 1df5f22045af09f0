-- Service accounts (issue 33): another system calling the API as a named account of the plan,
-- owned by a person who answers for it. A service account is a row of users, so that it gets
-- facility roles, permissions and audit attribution exactly as a person does; owner_id marks it.
-- It never has a password: it cannot sign in, and it cannot sign (21 CFR 11.100(a), 11.200: an
-- electronic signature belongs to one individual).
alter table users
  add column owner_id integer references users (id),
  add column service_account_description text;
alter table users add constraint users_service_account_no_password
  check (owner_id is null or (password_hash is null and auth_type = 'local'));
create index users_owner on users (owner_id) where owner_id is not null;

-- API tokens of service accounts. Shown once when issued; only the SHA-256 of the token is kept,
-- so a leaked table yields no usable token. Every token expires; a revoked token stays listed.
create table api_tokens (
  id integer generated always as identity primary key,
  user_id integer not null references users (id),
  name text not null,
  token_hash text not null unique,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  created_by integer not null references users (id),
  last_used_at timestamptz,
  last_used_ip text,
  revoked_at timestamptz,
  revoked_by integer references users (id),
  revoke_reason text,
  check (expires_at > created_at)
);
create index api_tokens_user on api_tokens (user_id);
