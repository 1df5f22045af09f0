-- Webhook bodies name their record's type in one casing, the controlled records' own (Run, SOP,
-- ChangeAssessment): the events of issue 33 that named theirs in camelCase take it too, so that
-- a run's release flag and its approval are one record (one order), and the delivery log names
-- the old events as it names the new ones.
update webhook_events
   set record_type = case record_type
                       when 'run' then 'Run'
                       when 'sampleResult' then 'SampleResult'
                       when 'equipment' then 'Equipment'
                       when 'facilityLimits' then 'FacilityLimits'
                     end
 where record_type in ('run', 'sampleResult', 'equipment', 'facilityLimits');

update webhook_deliveries d
   set record_key = e.record_type || ':' || e.record_id
  from webhook_events e
 where e.id = d.event_id and d.record_key <> e.record_type || ':' || e.record_id;
