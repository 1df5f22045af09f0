import {
  ZChangePasswordRequest,
  ZLoginRequest,
  ZLoginResponse,
  ZLogoutRequest,
  ZOk,
  ZPasswordPolicyResponse,
  ZResetPasswordCheckResponse,
  ZResetPasswordQuery,
  ZResetPasswordRequest,
} from '#core/schemas/auth.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { authRateLimit } from './auth-rate-limit.ts';
import { actorOf, SESSION_COOKIE, sessionLimitsOf, tokenOf } from '#server/http/session-guard.ts';
import { changePassword, checkResetLink, login, logout, resetPassword } from './auth.service.ts';
import { defaultPlanId, loadPasswordPolicy } from './policy.ts';
import { resolveSession } from '#server/sessions/session-lookup.ts';
import { DEFAULT_PASSWORD_POLICY } from '#core/password/password-policy.ts';

export function registerAuthRoutes({ app, db, config, mailer }: AppContext): void {
  const r = typed(app);
  const rateLimit = authRateLimit(db, config);
  const cookieOptions = {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.SECURE_COOKIES,
    path: '/',
  };

  r.post(
    '/api/v2/auth/login',
    {
      config: { public: true },
      onRequest: rateLimit,
      schema: {
        tags: ['auth'],
        summary: 'Sign in with an e-mail or employee ID and a password',
        body: ZLoginRequest,
        response: { 200: ZLoginResponse },
      },
    },
    async (request, reply) => {
      const result = await login(
        db,
        config,
        actorOf(request),
        request.body.username,
        request.body.password,
      );
      reply.setCookie(SESSION_COOKIE, result.token, cookieOptions);
      return result;
    },
  );

  r.post(
    '/api/v2/auth/logout',
    {
      config: { public: true },
      onRequest: rateLimit,
      schema: {
        tags: ['auth'],
        summary: 'End the session of the token in the header or the body',
        body: ZLogoutRequest,
        response: { 200: ZOk },
      },
    },
    async (request, reply) => {
      await logout(db, actorOf(request), tokenOf(request) ?? request.body?.token);
      reply.clearCookie(SESSION_COOKIE, cookieOptions);
      return { success: true as const };
    },
  );

  r.get(
    '/api/v2/auth/reset-password',
    {
      config: { public: true },
      onRequest: rateLimit,
      schema: {
        tags: ['auth'],
        summary: 'Check a reset or change-password link and return the password policy',
        querystring: ZResetPasswordQuery,
        response: { 200: ZResetPasswordCheckResponse },
      },
    },
    async (request) => checkResetLink(db, request.query.u, request.query.token),
  );

  r.post(
    '/api/v2/auth/reset-password',
    {
      config: { public: true },
      onRequest: rateLimit,
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a reset or change-password link; the link is spent',
        body: ZResetPasswordRequest,
        response: { 200: ZOk },
      },
    },
    async (request) => {
      const { u, token, password } = request.body;
      await resetPassword(db, mailer, actorOf(request), u, token, password);
      return { success: true as const };
    },
  );

  r.post(
    '/api/v2/auth/change-password',
    {
      config: { public: true },
      onRequest: rateLimit,
      schema: {
        tags: ['auth'],
        summary: 'Change a password with a one-time token, or as the signed-in user',
        body: ZChangePasswordRequest,
        response: { 200: ZOk },
      },
    },
    async (request) => {
      const token = tokenOf(request);
      const session =
        token && !request.body.token
          ? await resolveSession(db, token, sessionLimitsOf(config))
          : null;
      await changePassword(db, actorOf(request), request.body, session);
      return { success: true as const };
    },
  );

  r.get(
    '/api/v2/auth/reset-password-policy',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'The password policy that new passwords must meet',
        response: { 200: ZPasswordPolicyResponse },
      },
    },
    async () => {
      const planId = await defaultPlanId(db);
      const policy =
        planId === null ? DEFAULT_PASSWORD_POLICY : await loadPasswordPolicy(db, planId);
      return {
        passwordPolicySettings: {
          minPasswordLength: policy.minPasswordLength,
          minCapital: policy.minCapital,
          minNumber: policy.minNumber,
          specialCharacters: policy.specialCharacters,
        },
      };
    },
  );
}
