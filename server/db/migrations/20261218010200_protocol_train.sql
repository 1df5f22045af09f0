-- A protocol may name the equipment train it plans (issue 32): its equipment is then checked
-- against the train's, and its studies cover the train's items when it lists none of its own.
-- Versions approved before keep their content; the field is not in it and not compared.
alter table protocols add column train_id integer references equipment_trains (id);
