import { z } from 'zod';
import { PERMISSION_RESOURCES } from '../permissions/permission-map.ts';
import { ZReason, ZVersion } from './common.schemas.ts';

/**
 * A permission map as the client sends it: only resources and actions of spec §6, each a
 * boolean. Missing ones are false; unknown ones are refused, so a typo never grants nothing silently.
 */
export const ZPermissionMap = z
  .record(z.string(), z.record(z.string(), z.boolean()))
  .superRefine((map, ctx) => {
    for (const [resource, actions] of Object.entries(map)) {
      const known = PERMISSION_RESOURCES[resource];
      if (!known) {
        ctx.addIssue({ code: 'custom', path: [resource], message: 'Unknown resource' });
        continue;
      }
      for (const action of Object.keys(actions)) {
        if (!known.includes(action))
          ctx.addIssue({ code: 'custom', path: [resource, action], message: 'Unknown action' });
      }
    }
  });

const ZRoleName = z.string().trim().min(1, 'Please enter the role name').max(100);

export const ZCreateRoleRequest = z.object({
  name: ZRoleName,
  permissions: ZPermissionMap.default({}),
});
export type TCreateRoleRequest = z.infer<typeof ZCreateRoleRequest>;

export const ZUpdateRoleRequest = z
  .object({
    name: ZRoleName.optional(),
    permissions: ZPermissionMap.optional(),
    reason: ZReason,
    version: ZVersion.optional(),
    unArchive: z.boolean().optional(),
  })
  .refine((body) => body.unArchive === true || body.version !== undefined, {
    path: ['version'],
    message: 'The version of the record you edited is required',
  });
export type TUpdateRoleRequest = z.infer<typeof ZUpdateRoleRequest>;

export const ZRole = z.object({
  id: z.number().int(),
  facilityId: z.number().int(),
  name: z.string(),
  permissions: z.record(z.string(), z.record(z.string(), z.boolean())),
  userCount: z.number().int(),
  version: z.number().int(),
  archivedAt: z.string().nullable(),
  archiveReason: z.string().nullable(),
});
export type TRole = z.infer<typeof ZRole>;

export const ZRoleListQuery = z.object({
  archived: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});

export const ZUamAccess = z.object({ access: z.boolean() });

/** What the signed-in user may do: in the facility of the path, and anywhere in their plan. */
export const ZMyPermissions = z.object({
  facility: z.record(z.string(), z.record(z.string(), z.boolean())),
  plan: z.record(z.string(), z.record(z.string(), z.boolean())),
  isRestricted: z.boolean(),
});
export type TMyPermissions = z.infer<typeof ZMyPermissions>;
