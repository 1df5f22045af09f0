-- A protocol may name the equipment train it plans (issue 32): its equipment is then checked
-- against the train's, and its studies cover the train's items when it lists none of its own.
-- Versions approved before keep their content; the field is not in it and not compared.
-- An earlier migration of the same upgrade may have left history rows pending (a deferred
-- trigger): they are kept first, as the other migrations that alter a table do.
set constraints all immediate;
alter table protocols add column train_id integer references equipment_trains (id);
set constraints all deferred;
