-- What an analytical method measures when it is not the active itself (issue 32): total organic
-- carbon or conductivity. A TOC result is mass of carbon: it becomes mass of active by dividing
-- by the active's carbon fraction (mass of carbon per mass of active), all carbon attributed to
-- the active (worst case). Set on its own route, guarded by the ResidueMeasure permission.
alter table analytical_methods
  add column residue_measure text not null default 'active'
    check (residue_measure in ('active', 'toc', 'conductivity'));
alter table actives
  add column carbon_fraction double precision
    check (carbon_fraction is null or (carbon_fraction > 0 and carbon_fraction <= 1));
