import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import {
  ZFeedbackBody,
  ZFeedbackListQuery,
  ZFeedbackPage,
  ZFeedbackResponse,
  type TFeedback,
} from '#core/schemas/dashboard.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { likePattern, pageOf, pageWindow } from '#server/db/paging.ts';
import { actorOf, sessionOf } from '#server/http/session-guard.ts';
import { writeAudit } from '#server/db/audit-write.ts';

interface FeedbackRow {
  id: number;
  text: string;
  screen_path: string;
  user_id: number;
  user_name: string;
  created_at: Date | string;
}

const toFeedback = (row: FeedbackRow): TFeedback => ({
  id: row.id,
  text: row.text,
  screenPath: row.screen_path,
  userId: row.user_id,
  userName: row.user_name,
  createdAt: new Date(row.created_at).toISOString(),
});

/**
 * `feedback` (spec §7): anyone with a role in the facility sends feedback from any screen; the
 * facility's administrators (User Modify, as for the mail outbox) read it.
 */
export function registerFeedbackRoutes({ app, db, permitMember, permit }: AppContext): void {
  const r = typed(app);
  const F = '/api/v2/plans/:plan/facilities/:facility';
  const tags = ['feedback'];

  r.post(
    `${F}/feedback`,
    {
      preHandler: permitMember(),
      schema: {
        tags,
        summary:
          'Send feedback from the screen you are on (stored with you, the facility and the screen)',
        params: ZFacilityParams,
        body: ZFeedbackBody,
        response: { 200: ZFeedbackResponse },
      },
    },
    async (request) => {
      const { plan, facility } = request.params;
      const session = sessionOf(request);
      const { text, screenPath } = request.body;
      const actor = actorOf(request);
      const row = await db.transaction(async (tx) => {
        const [stored] = await tx.query<FeedbackRow>(
          `insert into feedback (plan_id, facility_id, user_id, screen_path, text)
           values ($1, $2, $3, $4, $5)
           returning id, text, screen_path, user_id, $6::text as user_name, created_at`,
          [plan, facility, session.user.id, screenPath, text, actor.userName ?? ''],
        );
        await writeAudit(tx, actor, {
          planId: plan,
          facilityId: facility,
          domain: 'Feedback',
          action: 'Create',
          entityId: stored!.id,
          newValues: { screenPath, text },
        });
        return stored!;
      });
      return { feedback: toFeedback(row) };
    },
  );

  r.get(
    `${F}/feedback`,
    {
      preHandler: permit('User', 'Modify'),
      schema: {
        tags,
        summary: "The facility's feedback, newest first (search in the text and the screen)",
        params: ZFacilityParams,
        querystring: ZFeedbackListQuery,
        response: { 200: ZFeedbackPage },
      },
    },
    async (request) => {
      const { facility } = request.params;
      const pattern = likePattern(request.query.search);
      const where = `f.facility_id = $1 and ($2::text is null or f.text ilike $2 or f.screen_path ilike $2)`;
      const { limit, offset } = pageWindow(request.query);
      const [count] = await db.query<{ n: number }>(
        `select count(*)::int as n from feedback f where ${where}`,
        [facility, pattern],
      );
      const rows = await db.query<FeedbackRow>(
        `select f.id, f.text, f.screen_path, f.user_id,
                u.first_name || ' ' || u.last_name as user_name, f.created_at
           from feedback f join users u on u.id = f.user_id
          where ${where} order by f.id desc limit $3 offset $4`,
        [facility, pattern, limit, offset],
      );
      return pageOf(rows.map(toFeedback), count?.n ?? 0, request.query);
    },
  );
}
