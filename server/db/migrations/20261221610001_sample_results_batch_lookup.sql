-- Issue 34: a results entry (and a sample's save, and the results import) looks its batch
-- numbers up among every result of the facility, retests' own included. The unique index
-- sample_results_batch leaves retests out, so it cannot answer that lookup, which read every
-- result of the facility instead (a results entry grew slower with each run entered). This
-- index answers it, retests included.
-- An earlier migration of the same upgrade may have left history rows pending (a deferred
-- trigger): they are kept first, as the other migrations that alter a table do.
set constraints all immediate;
create index sample_results_batch_lookup on sample_results (facility_id, lower(batch_number));
set constraints all deferred;
