import { z } from 'zod';
import { ZId, ZReason } from './common.schemas.ts';

export const ZLoginRequest = z.object({
  username: z.string().trim().min(1, 'Please input your E-mail!').max(320),
  password: z.string().max(1024).optional(),
});
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

export const ZSessionUser = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  planId: z.number().int(),
  roles: z.array(z.object({ name: z.string() })),
  department: z.object({ name: z.string() }).nullable(),
  /** The account created on first start: the only one that may act on any account. */
  isSystemAdmin: z.boolean(),
  /** How the user proves who they are, at sign-in and when signing: password, directory or SSO. */
  authType: z.enum(['local', 'ad', 'sso']),
});
export type TSessionUser = z.infer<typeof ZSessionUser>;

export const ZLicenseInfo = z.object({
  facilityId: z.number().int(),
  state: z.enum(['intimate', 'grace', 'grace-exceeded', 'genuine']),
  workflow: z.string(),
});

export const ZLoginResponse = z.object({
  token: z.string(),
  user: ZSessionUser,
  licenseInfo: z.array(ZLicenseInfo),
});
export type TLoginResponse = z.infer<typeof ZLoginResponse>;

export const ZLogoutRequest = z.object({ token: z.string().optional() }).nullish();

export const ZOk = z.object({ success: z.literal(true) });

/** What the client needs to warn before an idle session ends (POST /auth/session). */
export const ZSessionStatus = z.object({ idleTimeoutSeconds: z.number().int() });
export type TSessionStatus = z.infer<typeof ZSessionStatus>;

export const ZPasswordPolicySettings = z.object({
  minPasswordLength: z.number().int(),
  minCapital: z.number().int(),
  minNumber: z.number().int(),
  specialCharacters: z.number().int(),
});

export const ZResetPasswordQuery = z.object({
  u: ZId.optional(),
  token: z.string().min(1).max(200).optional(),
});

export const ZResetPasswordCheckResponse = z.object({
  username: z.string(),
  passwordPolicySettings: ZPasswordPolicySettings,
});

export const ZResetPasswordRequest = z
  .object({
    u: ZId,
    token: z.string().min(1).max(200),
    password: z.string().min(1, 'Please enter your new password!').max(1024),
    confirmPassword: z.string().min(1, 'Please confirm your password!').max(1024),
  })
  .refine((b) => b.password === b.confirmPassword, {
    path: ['confirmPassword'],
    message: 'The two passwords do not match',
  });

export const ZChangePasswordRequest = z
  .object({
    username: z.string().trim().min(1).max(320),
    newPassword: z.string().min(1, 'Please enter your new password!').max(1024),
    confirmPassword: z.string().min(1, 'Please confirm your password!').max(1024),
    existingPassword: z.string().max(1024).optional(),
    token: z.string().min(1).max(200).optional(),
  })
  .refine((b) => b.newPassword === b.confirmPassword, {
    path: ['confirmPassword'],
    message: 'The two passwords do not match',
  });

export const ZPasswordPolicyResponse = z.object({
  passwordPolicySettings: ZPasswordPolicySettings,
});

export const ZFacility = z.object({
  id: z.number().int(),
  name: z.string(),
  productType: z.enum(['product', 'intermediate', 'api']),
  tier: z.enum(['full', 'lite']),
  facilityGroup: z.object({ id: z.number().int(), name: z.string() }),
  additionalProperties: z.object({
    api: z.array(z.unknown()),
    intermediate: z.array(z.unknown()),
    product: z.array(z.unknown()),
    production: z.array(z.unknown()),
  }),
});
export type TFacility = z.infer<typeof ZFacility>;

export const ZFacilitiesResponse = z.object({ facilities: z.array(ZFacility) });

export const ZFeatures = z.object({
  SSO: z.boolean(),
  SSOProvider: z.enum(['azure', 'okta']).nullable(),
  logoutUrl: z.string().nullable(),
});

export const ZPlanParams = z.object({ plan: ZId });
export const ZFacilityParams = ZPlanParams.extend({
  facility: ZId,
});

export const ZForgotPasswordRequest = z.object({
  username: z.string().trim().min(1, 'Please enter your E-mail or Employee ID!').max(320),
  secretKey: z.string().trim().max(200).optional(),
  verifyToken: z.boolean().optional(),
});

export const ZForgotPasswordResponse = z.object({
  isEmail: z.boolean(),
  hasToken: z.boolean(),
  result: z.string().nullable(),
});

export const ZRegisterRequest = z.object({
  username: z.string().trim().min(1, 'Please Employee Id of the user').max(320),
  token: z.string().trim().min(1, 'Please Enter the Secret Key').max(200),
});

export const ZRegisterResponse = z.object({ redirect: z.string() });

export const ZSsoProvider = z.enum(['azure', 'okta']);
export const ZSsoParams = z.object({ provider: ZSsoProvider });
export const ZSsoLoginQuery = z.object({ u: z.string().trim().max(320).optional() });
/**
 * What an OpenID Connect provider sends back to the callback (OpenID Connect Core 1.0 §3.1.2.5
 * and §3.1.2.6, RFC 9207 for `iss`, OpenID Session Management for `session_state`, Azure's
 * `client_info`): declared, since a query parameter no route declares is refused.
 */
export const ZSsoVerifyQuery = z.object({
  state: z.string().max(200).optional(),
  code: z.string().max(4000).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(4000).optional(),
  error_uri: z.string().max(2000).optional(),
  session_state: z.string().max(500).optional(),
  iss: z.string().max(2000).optional(),
  client_info: z.string().max(4000).optional(),
  scope: z.string().max(2000).optional(),
});

/** The plan's single sign-on settings as read back: the client secret is never returned. */
export const ZSsoSettings = z.object({
  enabled: z.boolean(),
  provider: ZSsoProvider.nullable(),
  /** The issuer URL (Azure: https://login.microsoftonline.com/<tenant>/v2.0; Okta: the org URL). */
  issuer: z.string().nullable(),
  clientId: z.string().nullable(),
  hasClientSecret: z.boolean(),
  logoutUrl: z.string().nullable(),
  version: z.number().int(),
});

export const ZUpdateSsoSettingsRequest = z.object({
  enabled: z.boolean(),
  provider: ZSsoProvider,
  issuer: z.url({ protocol: /^https?$/, error: 'Issuer must be an http(s) URL' }).max(500),
  clientId: z.string().trim().min(1, 'Client ID is required').max(500),
  /** Omitted or empty: keep the stored secret. */
  clientSecret: z.string().max(2000).optional(),
  logoutUrl: z
    .url({ protocol: /^https?$/, error: 'Logout URL must be an http(s) URL' })
    .max(2000)
    .nullable(),
  version: z.number().int(),
  reason: ZReason,
});
export type TSsoSettings = z.infer<typeof ZSsoSettings>;
export type TUpdateSsoSettingsRequest = z.infer<typeof ZUpdateSsoSettingsRequest>;
