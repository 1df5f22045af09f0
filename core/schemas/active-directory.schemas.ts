import { z } from 'zod';
import { ZReason } from './common.schemas.ts';

/** An LDAP attribute description (RFC 4512 descr): nothing a filter or DN could be built from. */
const ZAttribute = z
  .string()
  .trim()
  .regex(/^[A-Za-z][A-Za-z0-9-]{0,63}$/, 'An attribute name has letters, digits and hyphens only');

/** A directory group whose members get a role in a facility when added from the directory. */
export const ZGroupRole = z.object({
  /** The group's DN, or its cn. */
  group: z.string().trim().min(1, 'Name the group').max(500),
  facilityId: z.number().int().positive(),
  roleId: z.number().int().positive(),
});
export type TGroupRole = z.infer<typeof ZGroupRole>;

/** The plan's directory as read back: the bind password is never returned. */
export const ZActiveDirectorySettings = z.object({
  enabled: z.boolean(),
  url: z.string().nullable(),
  baseDn: z.string().nullable(),
  bindDn: z.string().nullable(),
  hasBindPassword: z.boolean(),
  /** Matched against a user's Employee ID at sign-in; the first one is the Employee ID on add. */
  userSearchAttributes: z.array(z.string()),
  /** StartTLS on an ldap:// URL (an ldaps:// URL is TLS already). */
  useTls: z.boolean(),
  groupRoles: z.array(ZGroupRole),
  version: z.number().int(),
});
export type TActiveDirectorySettings = z.infer<typeof ZActiveDirectorySettings>;
export const ZActiveDirectorySettingsResponse = z.object({
  activeDirectorySettings: ZActiveDirectorySettings,
});

export const ZUpdateActiveDirectorySettingsRequest = z.object({
  enabled: z.boolean(),
  url: z
    .url({ protocol: /^ldaps?$/, error: 'The URL must start with ldap:// or ldaps://' })
    .max(500),
  baseDn: z.string().trim().min(1, 'Base DN is required').max(500),
  bindDn: z.string().trim().min(1, 'Bind DN is required').max(500),
  /** Omitted or empty: keep the stored password. */
  bindPassword: z.string().max(500).optional(),
  userSearchAttributes: z
    .array(ZAttribute)
    .min(1, 'Name at least one attribute')
    .max(5)
    .default(['sAMAccountName']),
  useTls: z.boolean(),
  groupRoles: z.array(ZGroupRole).max(200).default([]),
  version: z.number().int(),
  reason: ZReason,
});
export type TUpdateActiveDirectorySettingsRequest = z.infer<
  typeof ZUpdateActiveDirectorySettingsRequest
>;

export const ZActiveDirectoryPingResponse = z.object({
  success: z.boolean(),
  message: z.string(),
});

export const ZActiveDirectorySearchRequest = z.object({
  query: z.string().trim().min(1, 'Type part of a name, Employee ID or e-mail').max(100),
  /** The attributes the query is looked for in; the settings' search attributes when omitted. */
  fields: z.array(ZAttribute).min(1).max(8).optional(),
});

export const ZActiveDirectoryUser = z.object({
  dn: z.string(),
  username: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string().nullable(),
  groups: z.array(z.string()),
  /** The user of this plan with this Employee ID, when there is one already. */
  existingUserId: z.number().int().nullable(),
});
export type TActiveDirectoryUser = z.infer<typeof ZActiveDirectoryUser>;

export const ZActiveDirectorySearchResponse = z.object({
  activeDirectoryUsers: z.array(ZActiveDirectoryUser),
});

/** Adds the directory account with this DN (read again from the directory) as an `ad` user. */
export const ZAddDirectoryUserRequest = z.object({
  dn: z.string().trim().min(1).max(1000),
  departmentId: z.number().int().positive().nullish(),
});
