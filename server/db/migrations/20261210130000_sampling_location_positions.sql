-- Issue 31: a sampling location placed on a picture of its equipment, as fractions of the
-- picture's width (x, from the left) and height (y, from the top). All three or none; that the
-- picture is of the location's own equipment is checked by the app (sampling-locations.service).
alter table sampling_locations
  add column image_id integer references equipment_images (id),
  add column x double precision check (x >= 0 and x <= 1),
  add column y double precision check (y >= 0 and y <= 1),
  add constraint sampling_locations_position_whole check (
    (image_id is null and x is null and y is null)
    or (image_id is not null and x is not null and y is not null)
  );
