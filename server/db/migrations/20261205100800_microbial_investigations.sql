-- Microbial results follow the out-of-specification rule of sample results (issue 26; FDA OOS
-- guidance 2006, rev. 2022; core/verification/README.md "Out-of-specification results"): one
-- investigation record names either a sample result or a microbial result, and an assignable
-- laboratory cause approved by QA marks the microbial result invalidated as it does a sample
-- result.
alter table investigations alter column result_id drop not null;
alter table investigations
  add column microbial_result_id integer references microbial_results (id);
alter table investigations
  add constraint investigations_one_result
  check ((result_id is null) <> (microbial_result_id is null));
-- One investigation per microbial result, as per sample result.
create unique index investigations_microbial_result on investigations (microbial_result_id);

alter table microbial_results
  add column invalidated_by_investigation integer references investigations (id);
