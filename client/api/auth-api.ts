import type {
  FacilitiesResponse,
  Features,
  ForgotPasswordRequest,
  ForgotPasswordResponse,
  LoginResponse,
  LoginUser,
  RegisterResponse,
  ResetLinkResponse,
  ResetPasswordRequest,
} from './auth-types.ts';
import type { TSessionStatus } from '#core/schemas/auth.schemas.ts';
import { apiRequest } from './http-client.ts';

/** The calls of `shared/contracts/auth-api.md`, one function each. */

export function login(username: string, password: string): Promise<LoginResponse> {
  return apiRequest('/auth/login', {
    method: 'POST',
    body: { username, password },
    action: 'Log in',
  });
}

export async function logout(token: string | null): Promise<void> {
  await apiRequest('/auth/logout', {
    method: 'POST',
    token,
    body: token ? { token } : {},
    quiet: true,
  });
}

/** "Stay signed in": starts the server's idle clock again and tells its idle timeout. */
export function keepSessionAlive(): Promise<TSessionStatus> {
  return apiRequest('/auth/session', { method: 'POST', action: 'Staying signed in' });
}

export function getFeatures(): Promise<Features> {
  return apiRequest('/features', { action: 'Loading features' });
}

export function getCurrentUser(signal?: AbortSignal): Promise<LoginUser> {
  return apiRequest('/users/me', { action: 'Loading your account', ...(signal ? { signal } : {}) });
}

export function listFacilities(
  planId: number,
  options: { sso?: boolean; signal?: AbortSignal } = {},
): Promise<FacilitiesResponse> {
  return apiRequest(`/plans/${planId}/facilities`, {
    query: { sso: options.sso ? true : undefined },
    action: 'Loading facilities',
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

export function forgotPassword(request: ForgotPasswordRequest): Promise<ForgotPasswordResponse> {
  return apiRequest('/auth/forgot-password', {
    method: 'POST',
    body: request,
    action: 'Password recovery',
  });
}

export function checkResetLink(u: string, token: string): Promise<ResetLinkResponse> {
  return apiRequest('/auth/reset-password', {
    query: { u, token },
    token: null,
    action: 'Checking the reset link',
  });
}

export async function resetPassword(request: ResetPasswordRequest): Promise<void> {
  await apiRequest('/auth/reset-password', {
    method: 'POST',
    body: request,
    token: null,
    action: 'Reset password',
  });
}

export function register(username: string, token: string): Promise<RegisterResponse> {
  return apiRequest('/auth/register', {
    method: 'POST',
    body: { username, token },
    action: 'Registration',
  });
}

/** Browser redirect that starts single sign-on with the configured provider (spec §7). */
export function ssoLoginUrl(provider: string, username: string): string {
  return `/api/v2/auth/sso/${encodeURIComponent(provider)}/login?u=${encodeURIComponent(username)}`;
}
