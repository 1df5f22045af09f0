-- The system administrator: the one account created on first start. Only a system administrator
-- may act on another system administrator, on an account holding permissions the actor lacks, or
-- issue a secret key for an account that has already set its password (issue 8, privileges).
alter table users add column is_system_admin boolean not null default false;

-- Databases seeded before this column: the first-start seed recorded its administrator.
update users set is_system_admin = true
 where id in (select (new_values ->> 'adminUserId')::int from audit_log
               where domain = 'System' and action = 'Seed');
