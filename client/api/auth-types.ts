import type { z } from 'zod';
import type {
  TFacility,
  TLoginResponse,
  TSessionUser,
  ZFeatures,
  ZLicenseInfo,
  ZResetPasswordCheckResponse,
} from '#core/schemas/auth.schemas.ts';

/**
 * Shapes of the authentication calls. Where core/ has the server's zod schema the type comes from
 * it (type-only: no schema code reaches the browser bundle); the rest follow
 * `shared/contracts/auth-api.md` until their schemas land in core/.
 */

export type LoginUser = TSessionUser;
export type LoginResponse = TLoginResponse;
export type LicenseInfo = z.infer<typeof ZLicenseInfo>;
export type Facility = TFacility;
export type ProductType = Facility['productType'];
export type Tier = Facility['tier'];
export type AdditionalProperties = Facility['additionalProperties'];
export type Features = z.infer<typeof ZFeatures>;
export type ResetLinkResponse = z.infer<typeof ZResetPasswordCheckResponse>;
export type PasswordPolicySettings = ResetLinkResponse['passwordPolicySettings'];

export interface FacilitiesResponse {
  facilities: Facility[];
}

export interface ForgotPasswordRequest {
  username: string;
  secretKey?: string;
  verifyToken?: boolean;
}

export interface ForgotPasswordResponse {
  isEmail: boolean;
  hasToken: boolean;
  result: string | null;
}

export interface ResetPasswordRequest {
  u: string;
  token: string;
  password: string;
  confirmPassword: string;
}

export interface RegisterResponse {
  redirect: string;
}
