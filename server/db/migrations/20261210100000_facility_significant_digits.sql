-- Issue 30: how many significant digits screens, PDFs and workbooks show numbers with, per
-- facility (2 to 8, 4 by default). Part of the facility's display settings, beside its date and
-- time formats, and audited with them (DateTimeSettings).
alter table facilities
  add column significant_digits integer not null default 4
  constraint facilities_significant_digits_range check (significant_digits between 2 and 8);
