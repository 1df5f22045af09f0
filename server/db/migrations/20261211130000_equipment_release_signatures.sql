-- Issue 31: the release of an item of equipment is an electronic signature like every other, kept
-- in `signatures` (document type 'EquipmentRelease', `document_id` the item, `version_number`
-- the item's n-th release) and bound into the audit chain, so that it is listed, verified and
-- reported with the others. The logbook's Released entry points at its signature instead of
-- carrying a copy of it; entries made before keep the columns they were signed with.
alter table equipment_logbook add column signature_id integer unique references signatures (id);

do $$
declare
  check_name text;
begin
  select conname into check_name from pg_constraint
   where conrelid = 'equipment_logbook'::regclass and contype = 'c'
     and pg_get_constraintdef(oid) like '%signature_meaning%';
  execute format('alter table equipment_logbook drop constraint %I', check_name);
end
$$;
alter table equipment_logbook add constraint equipment_logbook_released_signed
  check ((event = 'Released') = (signature_id is not null or signature_meaning is not null));

-- The release's meaning joins the fixed meanings (core meaningOf); NOT VALID as before.
alter table signatures drop constraint signatures_meaning_fixed;
alter table signatures add constraint signatures_meaning_fixed check (
  (action = 'Submit' and meaning in ('Submitted for review', 'Closure proposed'))
  or (action = 'Review' and meaning = 'Reviewed')
  or (action = 'Approve' and meaning in ('Approved', 'Approve investigation', 'Approve closure',
    'Release equipment'))
  or (action = 'Reject' and meaning in ('Rejected', 'Closure rejected'))
) not valid;
