-- Issue 29: a report read as of a moment before the history of some of the facility's records
-- began (records made before versions were kept, changed after the moment) shows them as first
-- kept; the report says so, from this moment (UTC), in its data, its read and its PDF
-- (server/modules/reports/README.md). Null for every report whose moment is within the history.
set constraints all immediate;

alter table reports add column history_starts_at timestamptz;

set constraints all deferred;
