import { z } from 'zod';
import { ZId, ZReason } from './common.schemas.ts';
import { ZFacilityRoles } from './users.schemas.ts';

/** An API token lives at most this long: a token that never expires is a standing risk (Annex 11 §12). */
export const MAX_TOKEN_DAYS = 365;

const ZAccountName = z
  .string({ error: 'Please enter a name' })
  .trim()
  .min(1, 'Please enter a name')
  .max(100);

/** A service account: another system calling the API, owned by the person who answers for it. */
export const ZServiceAccount = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  owner: z.object({ id: z.number().int(), name: z.string() }),
  facilityRoles: z.array(
    z.object({
      facilityId: z.number().int(),
      facilityName: z.string(),
      roleIds: z.array(z.number().int()),
    }),
  ),
  roles: z.array(
    z.object({ id: z.number().int(), name: z.string(), facilityId: z.number().int() }),
  ),
  activeTokens: z.number().int(),
  lastUsedAt: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  archivedAt: z.string().nullable(),
});
export type TServiceAccount = z.infer<typeof ZServiceAccount>;

export const ZCreateServiceAccountRequest = z.object({
  name: ZAccountName,
  description: z.string().trim().max(500).nullish(),
  ownerId: z.number({ error: 'Choose the person who owns the account' }).int().positive(),
  facilityRoles: z.array(ZFacilityRoles).max(200).default([]),
});
export type TCreateServiceAccountRequest = z.infer<typeof ZCreateServiceAccountRequest>;

/** An edit names the version it was made from and why. */
export const ZUpdateServiceAccountRequest = z.object({
  name: ZAccountName.optional(),
  description: z.string().trim().max(500).nullish(),
  ownerId: z.number().int().positive().optional(),
  facilityRoles: z.array(ZFacilityRoles).max(200).optional(),
  reason: ZReason,
  version: z.number().int().min(1),
});
export type TUpdateServiceAccountRequest = z.infer<typeof ZUpdateServiceAccountRequest>;

export const TOKEN_STATES = ['active', 'expired', 'revoked'] as const;

/** An API token as listed: never its value, which is shown once when it is issued. */
export const ZApiToken = z.object({
  id: z.number().int(),
  name: z.string(),
  state: z.enum(TOKEN_STATES),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokedBy: z.string().nullable(),
  revokeReason: z.string().nullable(),
});
export type TApiToken = z.infer<typeof ZApiToken>;

export const ZIssueTokenRequest = z.object({
  name: ZAccountName,
  expiresInDays: z
    .number({ error: 'Choose how many days the token is valid' })
    .int('Whole days only')
    .min(1, 'A token is valid at least 1 day')
    .max(MAX_TOKEN_DAYS, `A token is valid at most ${MAX_TOKEN_DAYS} days`),
});
export type TIssueTokenRequest = z.infer<typeof ZIssueTokenRequest>;

/** The one answer that carries the token itself. */
export const ZIssuedToken = z.object({ token: z.string(), apiToken: ZApiToken });
export type TIssuedToken = z.infer<typeof ZIssuedToken>;

export const ZTokenParams = z.object({
  id: ZId,
  tokenId: ZId,
});
