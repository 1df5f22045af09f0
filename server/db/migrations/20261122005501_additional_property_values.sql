-- Values of the facility's additional properties (facilities.additional_properties holds their
-- definitions), by definition key. Values of archived definitions stay here, readable.
alter table actives add column additional_properties jsonb not null default '{}';
alter table intermediates add column additional_properties jsonb not null default '{}';
alter table products add column additional_properties jsonb not null default '{}';
alter table productions add column additional_properties jsonb not null default '{}';
