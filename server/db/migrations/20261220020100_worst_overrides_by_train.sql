-- Issue 32: a worst-case override of a train is keyed by the equipment-train record, not by the
-- production, so that it follows the train; and it keeps the train's equipment as signed
-- (`train_equipment_ids`), so that a train whose equipment changed afterwards shows its override
-- as made for an earlier version of the train (to review; it is no longer applied: the
-- justification was written for other equipment, EU GMP Annex 15 §10.12, ICH Q9).
--
-- Existing overrides are carried over, none lost and none rewritten: each keeps its row, its
-- signature and what it signed (`production_id` stays; the signed content is rebuilt from it as
-- before). A production with an override in force and no train gets a train of its own, made from
-- its equipment in its order (so its limits do not change), and is put on it. Two productions on
-- one train each with an override in force cannot share one override: the second gets a train of
-- its own with the same equipment. Each made train and each production put on one is audited.
-- The train's equipment as signed is the production's equipment as kept at the signature (its
-- record version then), else as it is now.
set constraints all immediate;

alter table worst_product_overrides
  add column train_id integer references equipment_trains (id),
  add column train_equipment_ids integer[];

alter table worst_product_overrides disable trigger worst_product_overrides_kept;

do $$
declare
  o record;
  made integer;
  train_name text;
begin
  for o in
    select w.id, w.facility_id, w.production_id, p.name, p.train_id, p.equipment_ids,
           p.version, f.plan_id
      from worst_product_overrides w
      join productions p on p.id = w.production_id
      join facilities f on f.id = w.facility_id
     where w.ended_at is null
     order by w.production_id
  loop
    if o.train_id is null or exists (
      select 1 from worst_product_overrides x join productions q on q.id = x.production_id
       where x.ended_at is null and x.train_id = o.train_id and q.id <> o.production_id
    ) then
      train_name := o.name;
      if exists (select 1 from equipment_trains t
                  where t.facility_id = o.facility_id and lower(t.name) = lower(train_name)) then
        train_name := o.name || ' (production ' || o.production_id || ')';
      end if;
      insert into equipment_trains (facility_id, name, equipment_ids, description)
      values (o.facility_id, train_name, coalesce(o.equipment_ids, '{}'),
              'Made by the upgrade that keys worst-case overrides by train, from the equipment of the production ' || o.name)
      returning id into made;
      update productions set train_id = made, version = version + 1, updated_at = now()
       where id = o.production_id;
      insert into audit_log (chain, seq, plan_id, facility_id, user_id, user_name, domain, action,
          entity_id, reason, old_values, new_values, ip, user_agent, request_id, prev_hash, hash)
      values
        (null, 0, o.plan_id, o.facility_id, null, 'system', 'EquipmentTrain', 'Create',
         made::text, 'A worst-case override follows a train: the production''s equipment as a train',
         null, jsonb_build_object('name', train_name, 'equipmentIds', to_jsonb(o.equipment_ids)),
         null, null, null, '', ''),
        (null, 0, o.plan_id, o.facility_id, null, 'system', 'Production', 'Update',
         o.production_id::text, 'A worst-case override follows a train: put on its own train',
         jsonb_build_object('trainId', o.train_id), jsonb_build_object('trainId', made),
         null, null, null, '', '');
      o.train_id := made;
    end if;
    update worst_product_overrides set train_id = o.train_id where id = o.id;
  end loop;
end
$$;

-- Ended overrides name their production's train too, where it has one (for the record).
update worst_product_overrides w set train_id = p.train_id
  from productions p
 where p.id = w.production_id and w.train_id is null and p.train_id is not null;

-- The equipment the override was signed for: the production's as kept when it was signed.
update worst_product_overrides w
   set train_equipment_ids = coalesce(
     (select array(select jsonb_array_elements_text(v.row_data -> 'equipment_ids')::int)
        from record_versions v
       where v.table_name = 'productions' and v.record_id = w.production_id
         and v.recorded_at <= w.created_at
       order by v.recorded_at desc, v.id desc limit 1),
     (select p.equipment_ids from productions p where p.id = w.production_id))
 where w.production_id is not null;

alter table worst_product_overrides enable trigger worst_product_overrides_kept;

-- One override in force per train; a train's override names its train.
drop index worst_product_overrides_train_in_force;
create unique index worst_product_overrides_train_in_force
  on worst_product_overrides (facility_id, train_id)
  where train_id is not null and ended_at is null;
alter table worst_product_overrides drop constraint worst_product_overrides_one_target;
alter table worst_product_overrides add constraint worst_product_overrides_one_target
  check ((equipment_id is null) = (production_id is not null or train_id is not null)
         and (ended_at is not null or equipment_id is not null or train_id is not null));
set constraints all deferred;
