-- A deviation may name the planned sampling location it is about (core/verification/README.md):
-- only such a deviation, or one that invalidates the run, explains a missing result at Submit.
alter table deviations add column sampling_location_id integer references sampling_locations (id);
