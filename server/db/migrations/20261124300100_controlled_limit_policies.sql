-- The cleaning limit policies (every residue type and the microbial policy: document type
-- CleaningLimitPolicy) and the cleaning inspection settings (CleaningInspectionSettings) become
-- controlled records (shared/contracts/signatures-api.md). Every facility has one record of each
-- from the start, and what it held when this ran is its version 1, Approved, so that no limit
-- changes. Later changes go through versions and signatures (server/records/controlled.ts).

-- The microbial policy joins the residue types' table, so that every CleaningLimitPolicy has its
-- id (the documentId) from one sequence.
alter table cleaning_limit_policies drop constraint cleaning_limit_policies_residue_type_check;
alter table cleaning_limit_policies add constraint cleaning_limit_policies_residue_type_check
  check (residue_type in ('Chemical', 'Detergent', 'Intermediate', 'Nitrosamine', 'Microbial'));

-- The defaults a new facility starts from: core/limits/policy.ts defaultPolicy(),
-- MICROBIAL_POLICY_DEFAULTS and INSPECTION_SETTINGS_DEFAULTS (the test
-- controlled-defaults.test.ts fails when the two drift apart).
create function controlled_rule_defaults(kind text) returns jsonb
language sql immutable as $$
  select case
    when kind in ('Chemical', 'Detergent', 'Intermediate', 'Nitrosamine') then
      '{"useToxicity":true,"useARL":true,"arl":{"value":10,"unit":"ppm"},"useResidueLimit":false,"residueLimit":{"value":10,"unit":"mg/sqcm"},"useFirstAvailableCriteria":false,"useProductLimit":false,"ignoreCombo":false,"useGlobalRecoveryPercentage":false,"globalRecoveryPercentage":100,"useSAR":true,"limitRepresentation":{"productAndEquipmentLimits":{"salMassUnit":"mg"},"sampleLimits":{"swab":{"usePerSampleLimit":false,"unit":"ppm"},"rinse":{"usePerSampleLimit":false,"unit":"ppm"}},"sampleRecordingLimits":{"swab":{"usePerSampleLimit":false,"unit":"ppm"},"rinse":{"usePerSampleLimit":false,"unit":"ppm"}},"reporting":{"swab":{"showSar":true,"showPerSampleResidue":true,"showConcentration":true,"perSampleLimitUnit":"mg","concentrationLimitUnit":"ppm"},"rinse":{"showSar":true,"showPerSampleResidue":true,"showConcentration":true,"perSampleLimitUnit":"mg","concentrationLimitUnit":"ppm"}}},"intermediateArl":{"value":10,"unit":"ppm"},"activesArl":{"value":10,"unit":"ppm"},"useSampleLimit":false,"swabSampleLimit":10,"rinseSampleLimit":10,"useFixedSampleLimits":false,"fixedSwabLimit":10,"fixedRinseLimit":10,"safetyFactor":1000,"modificationFactor":1,"bodyWeight":{"value":70,"unit":"kg"},"ld50EmpiricalFactor":2000,"areaBasis":"shared"}'::jsonb
      || jsonb_build_object('residueType', kind, 'useDosage', kind = 'Chemical',
                            'useLd50', kind = 'Detergent')
    when kind = 'Microbial' then
      '{"useMicrobialLimits":true,"gradeLimits":{"A":{"contactPlate":0,"swab":0},"B":{"contactPlate":5,"swab":5},"C":{"contactPlate":25,"swab":25},"D":{"contactPlate":50,"swab":50}},"ungradedLimit":{"contactPlate":100,"swab":100},"rinseLimit":100,"useEndotoxinLimit":false,"endotoxinLimit":0.25,"alertLevelPercentage":50,"microbialMethodIds":[]}'::jsonb
    when kind = 'InspectionSettings' then
      '{"visualInspectionRequired":true,"visibleResidueLimit":{"value":4,"unit":"ug/sqcm"},"minimumLightLux":500,"requireSecondPersonVerification":false,"requirePhotoEvidence":false,"dirtyHoldTimeHours":null,"cleanHoldTimeHours":null,"checklist":[{"item":"No visible residue on product-contact surfaces","isMandatory":true},{"item":"No cleaning agent residue or foam","isMandatory":true},{"item":"Surfaces dry, no standing water","isMandatory":true},{"item":"Gaskets, seals and screens intact and clean","isMandatory":true},{"item":"Equipment labelled with its cleaning status","isMandatory":false}]}'::jsonb
  end
$$;

-- The title a policy's versions carry (lists of approvals, signatures).
create function controlled_rule_title(kind text) returns text
language sql immutable as $$
  select case when kind = 'InspectionSettings' then 'Cleaning inspection settings'
              else kind || ' cleaning limit policy' end
$$;

insert into cleaning_limit_policies (facility_id, residue_type, policy, version, created_at,
    created_by, updated_at, updated_by)
select facility_id, 'Microbial', controlled_rule_defaults('Microbial') || body, version,
       created_at, created_by, updated_at, updated_by
  from facility_rules where kind = 'MicrobialPolicy';
delete from facility_rules where kind = 'MicrobialPolicy';

-- A facility's records (all facilities when `target_facility` is null): the missing ones with the defaults,
-- each stored one completed with the defaults of fields added since (as reads did), and version
-- 1 Approved where a record has no version yet. A default record is in force from the facility's
-- creation, a stored one from its last change (the earliest moment known).
create function ensure_controlled_rules(target_facility integer) returns void
language plpgsql as $$
begin
  insert into cleaning_limit_policies (facility_id, residue_type, policy, created_at, updated_at)
  select f.id, k.kind, controlled_rule_defaults(k.kind), f.created_at, f.created_at
    from facilities f
   cross join (values ('Chemical'), ('Detergent'), ('Intermediate'), ('Nitrosamine'),
                      ('Microbial')) k (kind)
   where target_facility is null or f.id = target_facility
  on conflict (facility_id, residue_type) do nothing;

  insert into facility_rules (facility_id, kind, rule_key, body, created_at, updated_at)
  select f.id, 'InspectionSettings', '', controlled_rule_defaults('InspectionSettings'),
         f.created_at, f.created_at
    from facilities f
   where target_facility is null or f.id = target_facility
  on conflict (facility_id, kind, rule_key) do nothing;

  update cleaning_limit_policies
     set policy = controlled_rule_defaults(residue_type) || policy
   where (target_facility is null or facility_id = target_facility)
     and controlled_rule_defaults(residue_type) || policy <> policy;
  update facility_rules
     set body = controlled_rule_defaults(kind) || body
   where kind = 'InspectionSettings' and (target_facility is null or facility_id = target_facility)
     and controlled_rule_defaults(kind) || body <> body;

  insert into controlled_versions (facility_id, document_type, document_id, version_number,
      status, signature_state, content, title, approved_at, created_by, created_at, updated_at)
  select p.facility_id, 'CleaningLimitPolicy', p.id, 1, 'Approved', 'Signed', p.policy,
         controlled_rule_title(p.residue_type), p.updated_at, p.updated_by, p.created_at,
         p.updated_at
    from cleaning_limit_policies p
   where (target_facility is null or p.facility_id = target_facility)
     and not exists (select 1 from controlled_versions v
                      where v.facility_id = p.facility_id
                        and v.document_type = 'CleaningLimitPolicy' and v.document_id = p.id);

  insert into controlled_versions (facility_id, document_type, document_id, version_number,
      status, signature_state, content, title, approved_at, created_by, created_at, updated_at)
  select r.facility_id, 'CleaningInspectionSettings', r.id, 1, 'Approved', 'Signed', r.body,
         controlled_rule_title(r.kind), r.updated_at, r.updated_by, r.created_at, r.updated_at
    from facility_rules r
   where r.kind = 'InspectionSettings' and (target_facility is null or r.facility_id = target_facility)
     and not exists (select 1 from controlled_versions v
                      where v.facility_id = r.facility_id
                        and v.document_type = 'CleaningInspectionSettings'
                        and v.document_id = r.id);
end
$$;

select ensure_controlled_rules(null);

-- Every new facility gets its records at once, however it is created (seed, API, tests).
create function facilities_controlled_rules() returns trigger
language plpgsql as $$
begin
  perform ensure_controlled_rules(new.id);
  return null;
end
$$;
create trigger facilities_controlled_rules after insert on facilities
  for each row execute function facilities_controlled_rules();
