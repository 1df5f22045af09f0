-- Active Directory / LDAP (spec §3, §7 activeDirectory): the plan's directory, read by the
-- service account whose bind password is stored encrypted (AES-256-GCM, the helper of the SSO
-- client secret); the rest is plain JSON in plan_settings, versioned with the other settings.
alter table plan_settings
  add column active_directory jsonb,
  add column active_directory_bind_password text;
