-- Equipment trains become controlled records (document type 'EquipmentTrain', issue 32): each
-- existing train, archived or not, is its version 1 Approved with what it holds now, so that no
-- production, limit or coverage changes; later edits are versions approved with signatures
-- (21 CFR 11.50/11.70; server/records/controlled.ts). The content is what the record mechanism
-- keeps of a save (controlled-entities.ts contentOf: the declared fields), so that the record's
-- own row equals its approved content (record-integrity.ts).
-- An earlier migration of the same upgrade may have left history rows pending (a deferred
-- trigger): they are kept first.
set constraints all immediate;
insert into controlled_versions (facility_id, document_type, document_id, version_number, status,
    signature_state, content, title, approved_at, created_by, created_at, updated_at)
select t.facility_id, 'EquipmentTrain', t.id, 1, 'Approved', 'Signed',
       jsonb_build_object('name', t.name, 'equipmentIds', to_jsonb(t.equipment_ids),
         'description', t.description),
       t.name, t.updated_at, t.created_by, t.created_at, t.updated_at
  from equipment_trains t
 where not exists (select 1 from controlled_versions v where v.facility_id = t.facility_id
         and v.document_type = 'EquipmentTrain' and v.document_id = t.id);
set constraints all deferred;
