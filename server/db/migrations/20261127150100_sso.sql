-- Single sign-on (spec §2 SSO): the plan's OpenID Connect provider, and the pending sign-ins.
-- The client secret is stored encrypted (AES-256-GCM, server/modules/auth/sso-secret.ts); the
-- rest of the configuration is plain JSON in plan_settings, versioned with the other settings.
alter table plan_settings
  add column sso jsonb,
  add column sso_client_secret text;

-- One row per redirect to the provider: state (stored as a hash), nonce and PKCE verifier stay
-- on the server, expire after ten minutes and are spent by the first callback that names them.
create table sso_logins (
  state_hash text primary key,
  plan_id integer not null references plans (id),
  provider text not null check (provider in ('azure', 'okta')),
  nonce text not null,
  code_verifier text not null,
  redirect_uri text not null,
  login_hint text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index sso_logins_expires_at on sso_logins (expires_at);
