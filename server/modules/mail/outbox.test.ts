import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, fullPermissionMap, permissionsWith } from '#server/test/factories.ts';
import { ADMIN, startTestServer, type TestServer } from '#server/test/test-server.ts';

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

  it("never shows another user's live reset link: the token is masked, and the reading audited", async () => {
    // The attack: anyone may ask for the system administrator's reset link, and whoever reads
    // the outbox (User Modify) would then hold it.
    const reader = await buildUser(server.db, { permissions: fullPermissionMap() });
    const readerToken = await server.login(reader.username, reader.password);
    const asked = await server.request('POST', '/api/v2/auth/forgot-password', {
      body: { username: ADMIN.email },
    });
    expect(asked.status).toBe(200);
    const list = await server.request<OutboxPage>(
      'GET',
      `/api/v2/mail-outbox?search=${encodeURIComponent(ADMIN.email)}`,
      { token: readerToken },
    );
    const id = list.body.data[0]!.id;
    const res = await server.request<{ text: string }>('GET', `/api/v2/mail-outbox/${id}`, {
      token: readerToken,
    });
    expect(res.status).toBe(200);
    const [stored] = await server.db.query<{ text_body: string }>(
      'select text_body from mail_outbox where id = $1',
      [id],
    );
    const live = /reset-password\?u=(\d+)&token=([\w-]+)/.exec(stored!.text_body)!;
    expect(res.body.text).toContain(
      `https://carryover.example.com/reset-password?u=${live[1]}&token=[hidden]`,
    );
    expect(res.body.text).not.toContain(live[2]);
    expect(res.body.text).not.toMatch(/[\w-]{43}/);
    // The mail itself carries a live link: only the masking keeps it from the reader.
    const check = await server.request(
      'GET',
      `/api/v2/auth/reset-password?u=${live[1]}&token=${live[2]}`,
    );
    expect(check.status).toBe(200);
    const [audit] = await server.db.query<{ entity_id: string; user_id: number }>(
      `select entity_id, user_id from audit_log where domain = 'MailOutbox' and action = 'Read'
        order by id desc limit 1`,
    );
    expect(audit).toEqual({ entity_id: String(id), user_id: reader.id });
  });

  it('shows its own recipient the link unmasked', async () => {
    await server.request('POST', '/api/v2/auth/forgot-password', {
      body: { username: ADMIN.email },
    });
    const list = await server.request<OutboxPage>(
      'GET',
      `/api/v2/mail-outbox?search=${encodeURIComponent(ADMIN.email)}`,
      { token: admin },
    );
    const res = await server.request<{ text: string }>(
      'GET',
      `/api/v2/mail-outbox/${list.body.data[0]!.id}`,
      { token: admin },
    );
    const link =
      /https:\/\/carryover\.example\.com\/reset-password\?u=(\d+)&token=([\w-]{43})/.exec(
        res.body.text,
      );
    expect(link).not.toBeNull();
    const check = await server.request(
      'GET',
      `/api/v2/auth/reset-password?u=${link![1]}&token=${link![2]}`,
    );
    expect(check.status).toBe(200);
  });

  it('answers NotFoundError for an unknown mail', async () => {
    const res = await server.request('GET', '/api/v2/mail-outbox/999999', { token: admin });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ errName: 'NotFoundError' });
  });
});
