import { z } from 'zod';
import { AppError } from '#core/errors/errors.ts';
import { rightText } from '#core/permissions/permission-texts.ts';
import { ZOk, ZSessionUser } from '#core/schemas/auth.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf, sessionOf } from '#server/http/session-guard.ts';
import { writeAudit } from '#server/db/audit-write.ts';
import { toSessionUser } from '#server/sessions/session-user.ts';
import { assertMayActOn, withRefusalsAudited } from '../users-admin/user-privileges.ts';
import { ZId } from '#core/schemas/common.schemas.ts';

export function registerUserRoutes({ app, db, requireSession }: AppContext): void {
  const r = typed(app);

  r.get(
    '/api/v2/users/me',
    {
      preHandler: requireSession,
      schema: { tags: ['users'], summary: 'The signed-in user', response: { 200: ZSessionUser } },
    },
    async (request) => toSessionUser(sessionOf(request).user),
  );

  r.delete(
    '/api/v2/users/:id/tokens',
    {
      preHandler: requireSession,
      schema: {
        tags: ['users'],
        summary:
          "End a user's sessions (the user themself, or an administrator who may modify users)",
        params: z.object({ id: ZId }),
        querystring: z.object({ token: z.string().optional() }),
        response: { 200: ZOk },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const targetId = request.params.id;
      if (targetId !== session.user.id) {
        const [allowed] = await db.query<{ ok: boolean }>(
          `select true as ok from user_facility_roles ufr join roles r on r.id = ufr.role_id and r.archived_at is null
             join users t on t.id = $2 and t.plan_id = $3
            where ufr.user_id = $1 and (r.permissions -> 'User' ->> 'Modify')::boolean limit 1`,
          [session.user.id, targetId, session.user.plan_id],
        );
        if (!allowed)
          throw new AppError('NotAllowed', `Ending sessions needs ${rightText('User', 'Modify')}`);
        await withRefusalsAudited(db, actorOf(request), () =>
          assertMayActOn(db, {
            planId: session.user.plan_id,
            actorId: session.user.id,
            targetId,
            attempted: 'SessionsEnded',
          }),
        );
      }
      await db.transaction(async (tx) => {
        const ended = await tx.query(
          `update sessions set ended_at = now(), end_reason = 'revoked'
            where user_id = $1 and ended_at is null returning id`,
          [targetId],
        );
        await writeAudit(tx, actorOf(request), {
          planId: session.user.plan_id,
          domain: 'User',
          action: 'SessionsEnded',
          entityId: targetId,
          newValues: { sessionsEnded: ended.length },
        });
      });
      return { success: true as const };
    },
  );
}
