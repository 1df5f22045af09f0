import { AppError } from '#core/errors/errors.ts';
import { ZMailOutboxMessage, ZMailOutboxPage } from '#core/schemas/audit.schemas.ts';
import { ZIdParams, ZListQuery } from '#core/schemas/common.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { likePattern, pageOf, pageWindow } from '#server/db/paging.ts';
import { actorOf, sessionOf } from '#server/http/session-guard.ts';
import { writeAudit } from '#server/db/audit-write.ts';

interface OutboxRow {
  id: number;
  to_address: string;
  subject: string;
  text_body?: string;
  created_at: Date | string;
  sent_at: Date | string | null;
  attempts: number;
  last_error: string | null;
}

const iso = (value: Date | string | null) =>
  value === null ? null : new Date(value).toISOString();

function toMail(row: OutboxRow) {
  return {
    id: row.id,
    to: row.to_address,
    subject: row.subject,
    createdAt: iso(row.created_at)!,
    sentAt: iso(row.sent_at),
    attempts: row.attempts,
    lastError: row.last_error,
  };
}

/**
 * A reset link or secret key is as good as the account it opens, so the outbox never shows a live
 * one to anyone but its own recipient: the token is masked. 256-bit tokens are 43 base64url
 * characters (see randomToken).
 */
export function maskTokens(text: string): string {
  return text
    .replace(/([?&]token=)[^&\s"'<>]+/g, '$1[hidden]')
    .replace(/(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g, '[hidden]');
}

/**
 * The mail outbox, so that without SMTP an administrator sees what the application sent and to
 * whom. Reading one takes User Modify (whoever may manage users anyway), opening a body is
 * audited, and the links and keys in another user's mail are masked (see maskTokens). The list
 * shows addresses and subjects only.
 */
export function registerMailOutboxRoutes({ app, db, permitPlan }: AppContext): void {
  const r = typed(app);
  const guard = permitPlan('User', 'Modify');

  r.get(
    '/api/v2/mail-outbox',
    {
      preHandler: guard,
      schema: {
        tags: ['mail'],
        summary: "The plan's mails, newest first (search in address and subject)",
        querystring: ZListQuery,
        response: { 200: ZMailOutboxPage },
      },
    },
    async (request) => {
      const planId = sessionOf(request).user.plan_id;
      const pattern = likePattern(request.query.search);
      const where = `plan_id = $1 and ($2::text is null or to_address ilike $2 or subject ilike $2)`;
      const { limit, offset } = pageWindow(request.query);
      const [count] = await db.query<{ n: number }>(
        `select count(*)::int as n from mail_outbox where ${where}`,
        [planId, pattern],
      );
      const rows = await db.query<OutboxRow>(
        `select id, to_address, subject, created_at, sent_at, attempts, last_error
           from mail_outbox where ${where} order by id desc limit $3 offset $4`,
        [planId, pattern, limit, offset],
      );
      return pageOf(rows.map(toMail), count?.n ?? 0, request.query);
    },
  );

  r.get(
    '/api/v2/mail-outbox/:id',
    {
      preHandler: guard,
      schema: {
        tags: ['mail'],
        summary:
          'One mail with its text (audited; links and keys in it are masked unless it is your own)',
        params: ZIdParams,
        response: { 200: ZMailOutboxMessage },
      },
    },
    async (request) => {
      const reader = sessionOf(request).user;
      const planId = reader.plan_id;
      return db.transaction(async (tx) => {
        const [row] = await tx.query<OutboxRow>(
          `select id, to_address, subject, text_body, created_at, sent_at, attempts, last_error
             from mail_outbox where id = $1 and plan_id = $2`,
          [request.params.id, planId],
        );
        if (!row) throw new AppError('NotFoundError', 'No such mail');
        await writeAudit(tx, actorOf(request), {
          planId,
          domain: 'MailOutbox',
          action: 'Read',
          entityId: row.id,
          newValues: { to: row.to_address, subject: row.subject },
        });
        const text = row.text_body ?? '';
        const isOwn =
          reader.email !== null && reader.email.toLowerCase() === row.to_address.toLowerCase();
        return { ...toMail(row), text: isOwn ? text : maskTokens(text) };
      });
    },
  );
}
