-- Issue 32: the worst-case product of a train (a production) or of an item of equipment is
-- computed by the worst-case ranking's criteria; a site may name another product only with a
-- justification and an electronic signature (EU GMP Annex 15 §10.12, ICH Q9; 21 CFR 11.50,
-- 11.200). Each override is kept as signed (its signature in `signatures`, document type
-- 'WorstProductOverride' with the production's id or 'EquipmentWiseWorstProduct' with the item's,
-- `version_number` counting the target's overrides). Only its end is written afterwards: when a
-- newer override replaces it (the audit row names both) or it is withdrawn, with who, when, why.
-- An earlier migration of the same upgrade may have left history rows pending (a deferred
-- trigger): they are kept first, as the other migrations that alter a table do.
set constraints all immediate;
create table worst_product_overrides (
  id integer generated always as identity primary key,
  facility_id integer not null references facilities (id),
  production_id integer references productions (id),
  equipment_id integer references equipment (id),
  -- What the ranking computed when it was signed, and what the site chose instead (names as the
  -- signer saw them; ids to follow the records).
  computed_product_id integer references products (id),
  computed_product text,
  computed_lowest_maco double precision,
  product_id integer not null references products (id),
  product text not null,
  lowest_maco double precision,
  -- The study of the chosen product is judged against the strictest of the two limits (mg).
  keep_computed_limit boolean not null,
  group_limit double precision,
  group_limit_product text,
  justification text not null,
  signature_id integer not null unique references signatures (id),
  created_at timestamptz not null default now(),
  ended_at timestamptz,
  ended_by integer references users (id),
  end_reason text,
  constraint worst_product_overrides_one_target
    check ((production_id is null) <> (equipment_id is null)),
  constraint worst_product_overrides_ended
    check ((ended_at is null) = (ended_by is null) and (ended_at is null) = (end_reason is null))
);
-- One override in force per train and per item.
create unique index worst_product_overrides_train_in_force
  on worst_product_overrides (facility_id, production_id)
  where production_id is not null and ended_at is null;
create unique index worst_product_overrides_item_in_force
  on worst_product_overrides (facility_id, equipment_id)
  where equipment_id is not null and ended_at is null;

-- What was signed is never rewritten: only the end of an override in force may be written, once.
create function worst_product_overrides_kept() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' or old.ended_at is not null
     or (to_jsonb(new) - array['ended_at', 'ended_by', 'end_reason'])
        <> (to_jsonb(old) - array['ended_at', 'ended_by', 'end_reason']) then
    raise exception 'a signed worst-case override is kept as signed';
  end if;
  return new;
end
$$;
create trigger worst_product_overrides_kept before update or delete on worst_product_overrides
  for each row execute function worst_product_overrides_kept();

-- Listed on a page like its neighbours: a write moves the facility's list version.
create constraint trigger worst_product_overrides_list_version
  after insert or update or delete on worst_product_overrides
  deferrable initially deferred for each row execute function bump_facility_list_version();

-- The override's meaning joins the fixed meanings (core meaningOf); NOT VALID as before.
alter table signatures drop constraint signatures_meaning_fixed;
alter table signatures add constraint signatures_meaning_fixed check (
  (action = 'Submit' and meaning in ('Submitted for review', 'Closure proposed'))
  or (action = 'Review' and meaning = 'Reviewed')
  or (action = 'Approve' and meaning in ('Approved', 'Approve investigation', 'Approve closure',
    'Release equipment', 'Approve site PDE override', 'Approve worst-case override'))
  or (action = 'Reject' and meaning in ('Rejected', 'Closure rejected'))
) not valid;
set constraints all deferred;
