-- One cleaning limit policy per residue type per facility. A facility without a stored policy
-- uses the defaults of spec §3; the first change stores the whole policy.
create table cleaning_limit_policies (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  residue_type text not null check (residue_type in ('Chemical', 'Detergent', 'Intermediate', 'Nitrosamine')),
  policy jsonb not null,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id),
  unique (facility_id, residue_type)
);
