import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '../../test/factories.ts';
import { startTestServer, type TestServer } from '../../test/test-server.ts';

// No SMTP_URL: mails stay in the outbox, as on the embedded default.
let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: 'https://carryover.example.com' });
  admin = await server.login();
});
afterAll(async () => {
  await server?.close();
});

interface OutboxPage {
  total: number;
  data: { id: number; to: string; subject: string; sentAt: string | null; attempts: number }[];
}

describe('GET /api/v2/mail-outbox', () => {
  it('refuses a user who may not modify users (403 NotAllowed)', async () => {
    const user = await buildUser(server.db, { permissions: permissionsWith({ User: ['Get'] }) });
    const res = await server.request('GET', '/api/v2/mail-outbox', {
      token: await server.login(user.username, user.password),
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ errName: 'NotAllowed' });
  });

  it('lists the mails of the plan, newest first, unsent without SMTP, with search and paging', async () => {
    const first = await buildUser(server.db);
    const second = await buildUser(server.db);
    for (const user of [first, second]) {
      const res = await server.request('POST', '/api/v2/auth/forgot-password', {
        body: { username: user.username },
      });
      expect(res.status).toBe(200);
    }
    const res = await server.request<OutboxPage>('GET', '/api/v2/mail-outbox?pageLimit=1', {
      token: admin,
    });
    expect(res.status).toBe(200);
    expect(res.body.total).toBeGreaterThanOrEqual(2);
    expect(res.body.data).toEqual([
      expect.objectContaining({
        to: second.email,
        subject: 'Reset your Carryover password',
        sentAt: null,
        attempts: 0,
      }),
    ]);
    expect(res.body.data[0]).not.toHaveProperty('text');
    const found = await server.request<OutboxPage>(
      'GET',
      `/api/v2/mail-outbox?search=${encodeURIComponent(first.email!)}`,
      { token: admin },
    );
    expect(found.body.total).toBe(1);
    expect(found.body.data[0]?.to).toBe(first.email);
  });
});

describe('GET /api/v2/mail-outbox/{id}', () => {
  it('refuses a user who may not modify users (403 NotAllowed)', async () => {
    const user = await buildUser(server.db, { permissions: permissionsWith({ User: ['Get'] }) });
    const res = await server.request('GET', '/api/v2/mail-outbox/1', {
      token: await server.login(user.username, user.password),
    });
    expect(res.status).toBe(403);
  });

  it('shows the text with the reset link that works, and audits the reading', async () => {
    const user = await buildUser(server.db);
    await server.request('POST', '/api/v2/auth/forgot-password', {
      body: { username: user.username },
    });
    const list = await server.request<OutboxPage>(
      'GET',
      `/api/v2/mail-outbox?search=${encodeURIComponent(user.email!)}`,
      { token: admin },
    );
    const id = list.body.data[0]!.id;
    const res = await server.request<{ text: string }>('GET', `/api/v2/mail-outbox/${id}`, {
      token: admin,
    });
    expect(res.status).toBe(200);
    const link = /https:\/\/carryover\.example\.com\/reset-password\?u=(\d+)&token=([\w-]+)/.exec(
      res.body.text,
    );
    expect(link).not.toBeNull();
    const check = await server.request(
      'GET',
      `/api/v2/auth/reset-password?u=${link![1]}&token=${link![2]}`,
    );
    expect(check.status).toBe(200);
    const [audit] = await server.db.query<{ entity_id: string; user_name: string }>(
      `select entity_id, user_name from audit_log where domain = 'MailOutbox' and action = 'Read'
        order by id desc limit 1`,
    );
    expect(audit).toEqual({ entity_id: String(id), user_name: 'System Administrator' });
  });

  it('answers NotFoundError for an unknown mail', async () => {
    const res = await server.request('GET', '/api/v2/mail-outbox/999999', { token: admin });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ errName: 'NotFoundError' });
  });
});
