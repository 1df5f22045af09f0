import { ZSessionStatus } from '#core/schemas/auth.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { sessionOf } from '#server/http/session-guard.ts';
import { touchSession } from '#server/sessions/session-lookup.ts';

export function registerSessionRoutes({ app, db, config, requireSession }: AppContext): void {
  const r = typed(app);

  // A POST: it changes the session, so the cookie alone may not call it (session-guard.ts).
  r.post(
    '/api/v2/auth/session',
    {
      preHandler: requireSession,
      schema: {
        tags: ['auth'],
        summary: 'Keep the session alive and tell the idle timeout',
        description:
          'Starts the idle clock of the calling session again (the "Stay signed in" of the ' +
          'client) and answers the idle timeout, so the client can warn before it runs out.',
        response: { 200: ZSessionStatus },
      },
    },
    async (request) => {
      await touchSession(db, sessionOf(request).sessionId);
      return { idleTimeoutSeconds: config.SESSION_IDLE_MINUTES * 60 };
    },
  );
}
