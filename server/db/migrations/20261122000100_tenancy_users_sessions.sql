-- Tenancy: a plan holds facility groups and facilities; users belong to a plan and are granted
-- facilities with roles per facility. Every facility-scoped table carries facility_id.

create table plans (
  id integer generated always as identity primary key,
  name text not null,
  created_at timestamptz not null default now()
);

create table plan_settings (
  plan_id integer primary key references plans (id),
  password_policy jsonb not null,
  allowed_domains text[] not null default '{}',
  version integer not null default 1,
  updated_at timestamptz not null default now()
);

create table facility_groups (
  id integer generated always as identity primary key,
  plan_id integer not null references plans (id),
  name text not null,
  created_at timestamptz not null default now(),
  unique (plan_id, name)
);

create table facilities (
  id integer generated always as identity primary key,
  plan_id integer not null references plans (id),
  facility_group_id integer not null references facility_groups (id),
  name text not null,
  product_type text not null check (product_type in ('product', 'intermediate', 'api')),
  tier text not null check (tier in ('full', 'lite')),
  additional_properties jsonb not null default '{"api":[],"intermediate":[],"product":[],"production":[]}',
  license_state text not null default 'genuine'
    check (license_state in ('intimate', 'grace', 'grace-exceeded', 'genuine')),
  license_workflow text not null default 'none',
  timezone text not null default 'UTC',
  date_format text not null default 'DD MMM, YYYY',
  time_format text not null default 'HH:mm',
  country text,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  unique (plan_id, name)
);

create table departments (
  id integer generated always as identity primary key,
  plan_id integer not null references plans (id),
  name text not null,
  created_at timestamptz not null default now(),
  unique (plan_id, name)
);

create table users (
  id integer generated always as identity primary key,
  plan_id integer not null references plans (id),
  first_name text not null,
  last_name text not null,
  -- The employee ID. Sign-in accepts it or the e-mail, case-insensitively.
  username text not null,
  email text,
  department_id integer references departments (id),
  auth_type text not null default 'local' check (auth_type in ('local', 'ad', 'sso')),
  password_hash text,
  password_changed_at timestamptz,
  must_change_password boolean not null default true,
  failed_attempts integer not null default 0,
  locked_until timestamptz,
  is_blocked boolean not null default false,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  archived_at timestamptz,
  archived_by integer references users (id),
  archive_reason text
);
create unique index users_username_key on users (lower(username));
create unique index users_email_key on users (lower(email)) where email is not null;

create table password_history (
  id integer generated always as identity primary key,
  user_id integer not null references users (id),
  password_hash text not null,
  created_at timestamptz not null default now()
);
create index password_history_user on password_history (user_id, created_at desc);

create table roles (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  name text not null,
  permissions jsonb not null,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  unique (facility_id, name)
);

create table user_facility_roles (
  user_id integer not null references users (id),
  facility_id integer not null references facilities (id),
  role_id integer not null references roles (id),
  primary key (user_id, facility_id, role_id)
);
create index user_facility_roles_facility on user_facility_roles (facility_id);

create table sessions (
  id integer generated always as identity primary key,
  user_id integer not null references users (id),
  token_hash text not null unique,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  ended_at timestamptz,
  -- logout and expired answer 401; superseded (a sign-in elsewhere) answers 419.
  end_reason text check (end_reason in ('logout', 'expired', 'superseded', 'revoked')),
  ip text,
  user_agent text
);
create index sessions_user_active on sessions (user_id) where ended_at is null;

-- Reset links, change-password links and secret keys: random, stored only as hashes, single use.
create table one_time_tokens (
  id integer generated always as identity primary key,
  user_id integer not null references users (id),
  kind text not null check (kind in ('reset', 'secret')),
  token_hash text not null unique,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index one_time_tokens_user on one_time_tokens (user_id, kind) where used_at is null;
