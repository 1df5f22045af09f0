import { z } from 'zod';
import { ZListQuery, ZReason, ZVersion } from './common.schemas.ts';

/** Usernames that name a system account elsewhere are refused (ASVS 6.3.2; reliability ID-4). */
export const RESERVED_USERNAMES = ['admin', 'root', 'sa'] as const;

export function isReservedUsername(username: string): boolean {
  return (RESERVED_USERNAMES as readonly string[]).includes(username.trim().toLowerCase());
}

/** The Accept header of GET /users that asks for `[{ id, name }]` instead of a page. */
export const ID_NAME_MEDIA_TYPE = 'application/vnd.idname+json';

/** Spec §3: how a user proves who they are — a password here, the directory, or the SSO provider. */
export const AUTH_TYPES = ['local', 'ad', 'sso'] as const;
export const ZAuthType = z.enum(AUTH_TYPES);
export type TAuthType = z.infer<typeof ZAuthType>;

const ZName = z.string().trim().min(1, 'is required').max(100);

export const ZFacilityRoles = z.object({
  facilityId: z.number().int().positive(),
  roleIds: z.array(z.number().int().positive()).min(1, 'Choose at least one role').max(50),
});
export type TFacilityRoles = z.infer<typeof ZFacilityRoles>;

const ZEmail = z.email('Please enter a valid e-mail address').max(320);

const ZUserFields = z.object({
  firstName: ZName,
  lastName: ZName,
  // The employee ID; sign-in takes it or the e-mail.
  username: z
    .string()
    .trim()
    .min(1, 'Please enter the Employee ID')
    .max(100)
    .regex(/^[^\s@]+$/, 'An Employee ID has no spaces and no @'),
  email: z
    .string()
    .trim()
    .transform((value) => (value === '' ? null : value))
    .pipe(ZEmail.nullable())
    .nullish(),
  departmentId: z.number().int().positive().nullish(),
  facilityRoles: z.array(ZFacilityRoles).max(200),
  authType: ZAuthType,
  // 21 CFR 11.200(a)(3): no one sets another user's password; an administrator only starts a reset.
  password: z
    .never({ error: "No one can set another user's password: resend the invitation instead" })
    .optional(),
});

/** An administrator creates a user: with an e-mail they are invited by mail, without one they get a secret key. */
export const ZCreateUserRequest = ZUserFields.extend({
  facilityRoles: ZUserFields.shape.facilityRoles.default([]),
  authType: ZAuthType.default('local'),
});
export type TCreateUserRequest = z.infer<typeof ZCreateUserRequest>;

/** An edit names the version it was made from and why; unArchive restores an archived user. */
export const ZUpdateUserRequest = ZUserFields.partial()
  .extend({
    reason: ZReason,
    version: ZVersion.optional(),
    unArchive: z.boolean().optional(),
  })
  .refine((body) => body.unArchive === true || body.version !== undefined, {
    path: ['version'],
    message: 'The version of the record you edited is required',
  });
export type TUpdateUserRequest = z.infer<typeof ZUpdateUserRequest>;

export const ZArchiveUserRequest = z.object({
  reason: ZReason,
  // Also takes the user's facilities and roles away, so that restoring them gives no access.
  force_delete: z.boolean().default(false),
});

export const ZReasonBody = z.object({ reason: ZReason });

export const ZResendInvitationRequest = z.object({
  id: z.number().int().positive().optional(),
  reason: ZReason,
  generateKey: z.boolean().default(false),
});

export const ZUserListQuery = ZListQuery.extend({
  archived: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});

export const ZUser = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  authType: ZAuthType,
  department: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  roles: z.array(z.object({ id: z.number().int(), name: z.string(), facilityId: z.number() })),
  facilityRoles: z.array(
    z.object({
      facilityId: z.number().int(),
      facilityName: z.string(),
      roleIds: z.array(z.number().int()),
    }),
  ),
  /** Has set a password: the invitation or registration is complete. */
  isRegistered: z.boolean(),
  /** Only a system administrator may act on this account (issue 8). */
  isSystemAdmin: z.boolean(),
  hasSecretKey: z.boolean(),
  isBlocked: z.boolean(),
  isLocked: z.boolean(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  archivedAt: z.string().nullable(),
  archiveReason: z.string().nullable(),
});
export type TUser = z.infer<typeof ZUser>;

export const ZIdName = z.object({ id: z.number().int(), name: z.string() });
export type TIdName = z.infer<typeof ZIdName>;

/** The secret key appears once, in the answer to the administrator who created it. */
export const ZUserWithKey = z.object({
  user: ZUser,
  secretKey: z.string().nullable(),
  invitationSent: z.boolean(),
});
export type TUserWithKey = z.infer<typeof ZUserWithKey>;
