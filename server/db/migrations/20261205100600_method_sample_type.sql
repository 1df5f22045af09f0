-- What an analytical method is validated to analyse: swab extracts or rinse water (issue 26). A
-- protocol refuses a method of the other sample type for a location. Unset (every method before
-- this): both, as nothing said otherwise.
alter table analytical_methods add column sample_type text check (sample_type in ('swab', 'rinse'));
