import {
  ZForgotPasswordRequest,
  ZForgotPasswordResponse,
  ZRegisterRequest,
  ZRegisterResponse,
} from '#core/schemas/auth.schemas.ts';
import { publicUrl } from '#server/config.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { authRateLimit } from './auth-rate-limit.ts';
import { actorOf } from '#server/http/session-guard.ts';
import { forgotPassword, register } from './recovery.service.ts';

export function registerRecoveryRoutes({ app, db, config, mailer }: AppContext): void {
  const r = typed(app);
  const rateLimit = authRateLimit(db, config);
  const baseUrl = publicUrl(config);

  r.post(
    '/api/v2/auth/forgot-password',
    {
      config: { public: true },
      onRequest: rateLimit,
      schema: {
        tags: ['auth'],
        summary: 'Send a reset link by mail, or exchange a secret key for a reset link',
        body: ZForgotPasswordRequest,
        response: { 200: ZForgotPasswordResponse },
      },
    },
    async (request) => forgotPassword(db, mailer, actorOf(request), request.body, baseUrl),
  );

  r.post(
    '/api/v2/auth/register',
    {
      config: { public: true },
      onRequest: rateLimit,
      schema: {
        tags: ['auth'],
        summary: 'First sign-in with an employee ID and the secret key from an administrator',
        body: ZRegisterRequest,
        response: { 200: ZRegisterResponse },
      },
    },
    async (request) => ({
      redirect: await register(db, actorOf(request), request.body.username, request.body.token),
    }),
  );
}
