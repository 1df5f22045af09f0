import type { Transporter } from 'nodemailer';
import type { Db, Queryable } from '../db/db.ts';

/** A mail as the outbox keeps it (server/modules/mail/mail-templates.ts writes them). */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Writes the mail to the outbox inside the caller's transaction. */
  enqueue(q: Queryable, planId: number | null, to: string, content: MailContent): Promise<number>;
  /** Sends what waits in the outbox, when SMTP is configured; call it after the commit. */
  deliverPending(): Promise<void>;
  close(): void;
}

export function createMailer(
  db: Db,
  options: { smtpUrl?: string | undefined; from: string; onError?: (e: Error) => void },
): Mailer {
  // nodemailer loads on the first delivery, so a server without SMTP never pays for it.
  let transport: Transporter | null = null;
  const transportOf = async (): Promise<Transporter | null> => {
    if (!options.smtpUrl) return null;
    transport ??= (await import('nodemailer')).default.createTransport(options.smtpUrl);
    return transport;
  };
  // Delivery runs one at a time, in order.
  let queue: Promise<void> = Promise.resolve();

  async function deliverOnce(): Promise<void> {
    const smtp = await transportOf();
    if (!smtp) return;
    const pending = await db.query<{
      id: number;
      to_address: string;
      subject: string;
      text_body: string;
      html_body: string;
    }>(
      `select id, to_address, subject, text_body, html_body from mail_outbox
        where sent_at is null and attempts < 5 order by id limit 50`,
    );
    for (const mail of pending) {
      try {
        await smtp.sendMail({
          from: options.from,
          to: mail.to_address,
          subject: mail.subject,
          text: mail.text_body,
          html: mail.html_body,
        });
        await db.query(
          'update mail_outbox set sent_at = now(), attempts = attempts + 1, last_error = null where id = $1',
          [mail.id],
        );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await db.query(
          'update mail_outbox set attempts = attempts + 1, last_error = $2 where id = $1',
          [mail.id, message],
        );
        options.onError?.(error instanceof Error ? error : new Error(message));
      }
    }
  }

  return {
    async enqueue(q, planId, to, content) {
      const [row] = await q.query<{ id: number }>(
        `insert into mail_outbox (plan_id, to_address, subject, text_body, html_body)
         values ($1, $2, $3, $4, $5) returning id`,
        [planId, to, content.subject, content.text, content.html],
      );
      return row!.id;
    },
    deliverPending() {
      queue = queue.then(deliverOnce).catch((error: unknown) => {
        options.onError?.(error instanceof Error ? error : new Error(String(error)));
      });
      return queue;
    },
    close() {
      transport?.close();
    },
  };
}
