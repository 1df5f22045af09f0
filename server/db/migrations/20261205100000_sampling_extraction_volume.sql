-- Issue 26: the volume a swab is extracted into, on the sampling type. Without it a swab
-- method's LOQ stated as a concentration cannot be compared with a per-swab limit.
alter table sampling_types add column extraction_volume jsonb;
