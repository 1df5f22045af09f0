-- Issue 28: single sign-on matched an identity provider's preferred_username, or an e-mail the
-- provider had not verified, to a local account. An account is now linked to the provider's
-- identity (issuer and subject, which the provider never reassigns: OpenID Connect Core 1.0
-- §2) at its first sign-in, found by a verified e-mail only; later sign-ins find it by the link.
create table sso_identities (
  id integer generated always as identity primary key,
  plan_id integer not null references plans (id),
  user_id integer not null references users (id),
  issuer text not null,
  subject text not null,
  linked_at timestamptz not null default now(),
  unique (plan_id, issuer, subject),
  -- One identity per account and provider: a second subject with the same e-mail is refused.
  unique (user_id, issuer)
);
