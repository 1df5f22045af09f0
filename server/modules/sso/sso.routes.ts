import type { FastifyRequest } from 'fastify';
import {
  ZSsoLoginQuery,
  ZSsoParams,
  ZSsoSettings,
  ZSsoVerifyQuery,
  ZUpdateSsoSettingsRequest,
} from '#core/schemas/auth.schemas.ts';
import type { Config } from '#server/config.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf, SESSION_COOKIE, sessionOf } from '#server/http/session-guard.ts';
import { authRateLimit } from '../auth/auth-rate-limit.ts';
import { AppError } from '#core/errors/errors.ts';
import { ZSsoReauthRequest, ZSsoReauthResponse } from '#core/schemas/signer.schemas.ts';
import {
  enabledProvider,
  getSsoSettings,
  SsoRefusal,
  ssoLoginUrl,
  ssoVerify,
  updateSsoSettings,
} from './sso.service.ts';

/**
 * This server's own origin, as the provider must send the browser back to it: PUBLIC_URL, or
 * the request's; the provider accepts only a registered redirect URI, and the return to the app
 * after the callback is a relative address, so a forged Host header cannot carry a token away.
 */
function origin(config: Config, request: FastifyRequest): string {
  return config.PUBLIC_URL?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;
}

/**
 * Single sign-on (spec §2): the browser goes to `…/login`, on to the provider, and back to
 * `…/verify`, which signs the user in and returns to the app with the token in the address
 * (`/?sso=true&token=…`), or with the refusal in `error`.
 */
/** Where the provider's window lands after a signer's fresh sign-in (client/account). */
const SIGNATURE_RETURN = '/sso-signature';

export function registerSsoRoutes({
  app,
  db,
  config,
  permitPlan,
  requireSession,
}: AppContext): void {
  const r = typed(app);
  const rateLimit = authRateLimit(db, config);

  r.get(
    '/api/v2/auth/sso/:provider/login',
    {
      config: { public: true },
      onRequest: rateLimit,
      schema: {
        tags: ['auth'],
        summary: 'Redirect to the SSO provider (PKCE, state and nonce kept on the server)',
        params: ZSsoParams,
        querystring: ZSsoLoginQuery,
      },
    },
    async (request, reply) => {
      const { provider } = request.params;
      const redirectUri = `${origin(config, request)}/api/v2/auth/sso/${provider}/verify`;
      const url = await ssoLoginUrl(
        db,
        config,
        provider,
        redirectUri,
        request.query.u || undefined,
      );
      return reply.redirect(url, 302);
    },
  );

  r.get(
    '/api/v2/auth/sso/:provider/verify',
    {
      config: { public: true },
      onRequest: rateLimit,
      schema: {
        tags: ['auth'],
        summary: "The provider's callback: verify the ID token, sign in, return to the app",
        params: ZSsoParams,
        querystring: ZSsoVerifyQuery,
      },
    },
    async (request, reply) => {
      const base = origin(config, request);
      const callbackUrl = new URL(request.url, base);
      try {
        const result = await ssoVerify(
          db,
          config,
          actorOf(request),
          request.params.provider,
          callbackUrl,
        );
        if ('signingProof' in result) {
          const query = new URLSearchParams({ proof: result.signingProof });
          return reply.redirect(`${SIGNATURE_RETURN}?${query}`, 302);
        }
        reply.setCookie(SESSION_COOKIE, result.token, {
          httpOnly: true,
          sameSite: 'lax',
          secure: config.SECURE_COOKIES,
          path: '/',
        });
        const query = new URLSearchParams({ sso: 'true', token: result.token });
        return reply.redirect(`/?${query}`, 302);
      } catch (error) {
        if (!(error instanceof SsoRefusal)) throw error;
        const back = error.purpose === 'signature' ? SIGNATURE_RETURN : '/';
        return reply.redirect(`${back}?${new URLSearchParams({ error: error.message })}`, 302);
      }
    },
  );

  r.post(
    '/api/v2/auth/sso/reauth',
    {
      preHandler: requireSession,
      onRequest: rateLimit,
      schema: {
        tags: ['auth'],
        summary:
          "A single sign-on user's fresh sign-in at the provider before a signature (prompt=login, max_age=0)",
        body: ZSsoReauthRequest,
        response: { 200: ZSsoReauthResponse },
      },
    },
    async (request) => {
      const { user } = sessionOf(request);
      if (user.auth_type !== 'sso') {
        throw new AppError(
          'NotAllowed',
          'Only single sign-on users confirm a signature at the provider; enter your password',
        );
      }
      const provider = await enabledProvider(db);
      const redirectUri = `${origin(config, request)}/api/v2/auth/sso/${provider}/verify`;
      const hint = user.email ?? user.username;
      const url = await ssoLoginUrl(db, config, provider, redirectUri, hint, { userId: user.id });
      return { url };
    },
  );

  r.get(
    '/api/v2/users/sso-settings',
    {
      preHandler: permitPlan('User', 'Get'),
      schema: {
        tags: ['settings'],
        summary: "The plan's single sign-on settings (the client secret is never returned)",
        response: { 200: ZSsoSettings },
      },
    },
    async (request) => getSsoSettings(db, sessionOf(request).user.plan_id),
  );

  r.put(
    '/api/v2/users/sso-settings',
    {
      preHandler: permitPlan('User', 'Modify'),
      schema: {
        tags: ['settings'],
        summary: 'Change the single sign-on settings (secret stored encrypted; audited)',
        body: ZUpdateSsoSettingsRequest,
        response: { 200: ZSsoSettings },
      },
    },
    async (request) =>
      updateSsoSettings(
        db,
        config,
        actorOf(request),
        sessionOf(request).user.plan_id,
        request.body,
      ),
  );
}
