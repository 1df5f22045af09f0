-- Issue 32: the plan's library of HBEL monographs (EMA/CHMP/CVMP/SWP/169430/2012). One row per
-- monograph, its working content in `monograph` (validated by core/schemas/hbel-library.schemas.ts)
-- and the PDE computed from it (core/hbel/monograph-pde.ts). A monograph is a controlled record
-- (document type 'HbelMonograph'): its versions and signatures are kept by controlled_versions and
-- signatures under `facility_id`, the facility of the plan whose approval policy signs it (the
-- one record mechanism takes a facility; the library itself is read plan-wide).
create table hbel_monographs (
  id integer generated always as identity primary key,
  plan_id integer not null references plans (id),
  facility_id integer not null references facilities (id),
  substance text not null,
  monograph jsonb not null,
  -- mg/day as { value, unit }; null when the inputs give none.
  pde jsonb,
  archived_at timestamptz,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  created_by integer references users (id),
  updated_at timestamptz not null default now(),
  updated_by integer references users (id)
);
create unique index hbel_monographs_substance
  on hbel_monographs (plan_id, lower(substance)) where archived_at is null;
create index hbel_monographs_plan on hbel_monographs (plan_id, id);

-- An active linked to a library entry takes its PDE from the version approved when it was linked
-- (pinned: a later version reaches the site through its own change, never silently). A site
-- override replaces that value only with its justification beside it (EMA HBEL guideline §7:
-- the derivation and its deviations are documented).
alter table actives
  add column hbel_monograph_id integer references hbel_monographs (id),
  add column hbel_version_number integer,
  add column hbel_pde jsonb,
  add column pde_override jsonb,
  add column pde_override_justification text,
  add constraint actives_hbel_link check
    ((hbel_monograph_id is null) = (hbel_version_number is null)
     and (hbel_monograph_id is not null or pde_override is null)
     and ((pde_override is null) = (pde_override_justification is null)));
create index actives_hbel_monograph on actives (hbel_monograph_id) where hbel_monograph_id is not null;

select keep_record_versions('hbel_monographs');
