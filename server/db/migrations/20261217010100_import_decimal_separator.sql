-- How a laboratory's file writes its decimals (issue 33): a European LIMS writes 0,12. Declared
-- per mapping and never guessed from the file; empty means a decimal point.
alter table results_import_mappings
  add column decimal_separator text
    constraint results_import_mappings_decimal_separator check (decimal_separator in ('.', ','));
