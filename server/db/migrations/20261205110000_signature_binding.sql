-- Electronic signatures bound into the audit hash chain with a keyed MAC (issue 28; 21 CFR
-- 11.70: a signature linked to its record so that it cannot be copied or moved by ordinary
-- means). The MAC's key lives outside the database, so it is written by the server, in the
-- signature's audit row; these are what the database itself holds for that.

-- The signatures made before MACs existed. The server binds exactly these, once, at its first
-- start after this migration. A function the app role does not own, so that the app role cannot
-- add a signature of its own making to the list (a row in a table it could insert into).
do $$
begin
  execute format(
    'create function signatures_before_mac() returns integer[] language sql immutable as %L',
    format('select %L::integer[]',
      (select coalesce(array_agg(id order by id), '{}') from signatures)));
end
$$;

-- A signature's chain entries are found by its id (the audit rows that carry a MAC).
create index audit_log_signature_binding on audit_log ((new_values ->> 'signatureId'))
  where domain = 'ElectronicSignature' and new_values ->> 'mac' is not null;
