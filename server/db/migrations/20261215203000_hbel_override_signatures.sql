-- Issue 32: a site override of a linked active's PDE is an electronic signature (21 CFR 11.50,
-- 11.200; EMA HBEL guideline §7: a deviation from the derived PDE is justified and documented).
-- Each override is kept once, as signed, in `hbel_pde_overrides` (never updated), its signature in
-- `signatures` (document type 'HbelOverride', `document_id` the active, `version_number` the
-- active's n-th override) bound into the audit chain. The active points at the override in force.
create table hbel_pde_overrides (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  active_id integer not null references actives (id),
  hbel_monograph_id integer not null references hbel_monographs (id),
  hbel_version_number integer not null,
  -- mg/day as { value, unit }: the library's PDE and the site's.
  library_pde jsonb not null,
  pde jsonb not null,
  justification text not null,
  signature_id integer not null unique references signatures (id),
  created_at timestamptz not null default now()
);
create index hbel_pde_overrides_active on hbel_pde_overrides (facility_id, active_id);

alter table actives add column pde_override_id integer references hbel_pde_overrides (id);
-- Overrides made before this migration were not signed: NOT VALID leaves them as they are.
alter table actives add constraint actives_hbel_override_signed
  check (pde_override is null or pde_override_id is not null) not valid;

-- The override's meaning joins the fixed meanings (core meaningOf); NOT VALID as before.
alter table signatures drop constraint signatures_meaning_fixed;
alter table signatures add constraint signatures_meaning_fixed check (
  (action = 'Submit' and meaning in ('Submitted for review', 'Closure proposed'))
  or (action = 'Review' and meaning = 'Reviewed')
  or (action = 'Approve' and meaning in ('Approved', 'Approve investigation', 'Approve closure',
    'Release equipment', 'Approve site PDE override'))
  or (action = 'Reject' and meaning in ('Rejected', 'Closure rejected'))
) not valid;
