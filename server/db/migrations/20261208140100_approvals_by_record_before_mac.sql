-- An approval by another record (a policy edit put in force by an approved change assessment)
-- has no signatures of its own: its ElectronicSignature / ApprovedByRecord audit entry stands in
-- for them, and from now on carries a MAC under the signatures' key outside the database (issue
-- 28; 21 CFR 11.70). The entries written before hold none: the server binds exactly these, once,
-- at its first start after this migration. A function the app role does not own, so that the
-- app role cannot add an entry of its own making to the list.
do $$
begin
  execute format(
    'create function approvals_by_record_before_mac() returns bigint[] language sql immutable as %L',
    format('select %L::bigint[]',
      (select coalesce(array_agg(id order by id), '{}') from audit_log
        where domain = 'ElectronicSignature' and action = 'ApprovedByRecord')));
end
$$;
