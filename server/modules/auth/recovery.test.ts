import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '#server/test/factories.ts';
import { plainText, startSmtpSink, type SmtpSink } from '#server/test/smtp-sink.ts';
import { ADMIN, startTestServer, type TestServer } from '#server/test/test-server.ts';
import { issueOneTimeToken } from './one-time-tokens.ts';

let smtp: SmtpSink;
let server: TestServer;
beforeAll(async () => {
  smtp = await startSmtpSink();
  server = await startTestServer({
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'https://carryover.example.com',
  });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const forgot = (body: Record<string, unknown>) =>
  server.request<Record<string, unknown>>('POST', '/api/v2/auth/forgot-password', { body });

describe('POST /api/v2/auth/forgot-password', () => {
  it('mails a user with an e-mail a reset link that works once', async () => {
    const user = await buildUser(server.db);
    const res = await forgot({ username: user.username });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ isEmail: true, hasToken: false, result: null });

    const mail = await smtp.waitFor(user.email!);
    expect(mail.raw).toMatch(/Subject: Reset your Carryover password/);
    expect(mail.raw).toMatch(/text\/html/);
    const text = plainText(mail.raw);
    const link = /https:\/\/carryover\.example\.com(\/reset-password\?u=\d+&token=[\w-]+)/.exec(
      text,
    );
    expect(link, text).not.toBeNull();
    const url = new URL(link![1]!, 'https://x');
    const u = Number(url.searchParams.get('u'));
    const token = url.searchParams.get('token')!;
    expect(u).toBe(user.id);

    const check = await server.request('GET', `/api/v2/auth/reset-password?u=${u}&token=${token}`);
    expect(check.body).toMatchObject({ username: user.email });
    const reset = await server.request('POST', '/api/v2/auth/reset-password', {
      body: { u, token, password: 'Mailed#Pass1', confirmPassword: 'Mailed#Pass1' },
    });
    expect(reset.status).toBe(200);
    expect(
      (
        await server.request('POST', '/api/v2/auth/login', {
          body: { username: user.email, password: 'Mailed#Pass1' },
        })
      ).status,
    ).toBe(200);
    const [sent] = await server.db.query<{ sent: boolean }>(
      'select sent_at is not null as sent from mail_outbox where to_address = $1',
      [user.email],
    );
    expect(sent?.sent).toBe(true);
  });

  it('asks a user without an e-mail for the secret key, then exchanges it once for a reset link', async () => {
    const user = await buildUser(server.db, { email: null });
    const secret = await issueOneTimeToken(server.db, user.id, 'secret', null);
    expect((await forgot({ username: user.username })).body).toEqual({
      isEmail: false,
      hasToken: true,
      result: null,
    });
    const wrong = await forgot({ username: user.username, secretKey: 'guess', verifyToken: true });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({
      errName: 'InvalidToken',
      message: 'The secret key you entered is invalid. Please contact your administrator',
    });
    const ok = await forgot({ username: user.username, secretKey: secret, verifyToken: true });
    expect(ok.body).toMatchObject({
      isEmail: false,
      hasToken: true,
      result: expect.stringMatching(/^\/reset-password\?u=\d+&token=/),
    });
    const again = await forgot({ username: user.username, secretKey: secret, verifyToken: true });
    expect(again.body).toMatchObject({ errName: 'InvalidToken' });
  });

  it('refuses unknown and blocked users with the catalogue errors', async () => {
    expect((await forgot({ username: 'ghost@example.com' })).body).toMatchObject({
      errName: 'RequestingUserNotfound',
    });
    const blocked = await buildUser(server.db, { isBlocked: true });
    expect((await forgot({ username: blocked.username })).body).toMatchObject({
      errName: 'UserBlockedError',
    });
    const empty = await forgot({ username: '  ' });
    expect(empty.status).toBe(422);
    expect(empty.body).toMatchObject({
      errors: [
        {
          property: 'username',
          constraints: { too_small: 'Please enter your E-mail or Employee ID!' },
        },
      ],
    });
  });
});

describe('POST /api/v2/auth/register', () => {
  it('turns an employee ID and secret key into the set-password link', async () => {
    const user = await buildUser(server.db, { email: null, mustChangePassword: true });
    // Never registered: no password yet, as an account created without an e-mail starts.
    await server.db.query('update users set password_hash = null where id = $1', [user.id]);
    const secret = await issueOneTimeToken(server.db, user.id, 'secret', null);
    const res = await server.request<{ redirect: string }>('POST', '/api/v2/auth/register', {
      body: { username: user.username.toLowerCase(), token: secret },
    });
    expect(res.status).toBe(200);
    const url = new URL(res.body.redirect, 'http://x');
    expect(url.pathname).toBe('/reset-password');
    const token = url.searchParams.get('token')!;
    expect(
      (
        await server.request('POST', '/api/v2/auth/reset-password', {
          body: { u: user.id, token, password: 'Registered#1', confirmPassword: 'Registered#1' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await server.request('POST', '/api/v2/auth/login', {
          body: { username: user.username, password: 'Registered#1' },
        })
      ).status,
    ).toBe(200);
    // The user's own rows: another record (a role seeded with the facility) may share its id.
    const actions = await server.db.query<{ action: string }>(
      `select action from audit_log
        where entity_id = $1 and domain in ('Authentication', 'User') order by id`,
      [String(user.id)],
    );
    expect(actions.map((a) => a.action)).toEqual(['Registered', 'PasswordReset', 'Login']);
  });

  it('refuses a wrong secret key and an unknown employee ID', async () => {
    const user = await buildUser(server.db, { email: null });
    await issueOneTimeToken(server.db, user.id, 'secret', null);
    expect(
      (
        await server.request('POST', '/api/v2/auth/register', {
          body: { username: user.username, token: 'nope' },
        })
      ).body,
    ).toMatchObject({
      errName: 'InvalidToken',
    });
    expect(
      (
        await server.request('POST', '/api/v2/auth/register', {
          body: { username: 'NOBODY', token: 'x' },
        })
      ).body,
    ).toMatchObject({
      errName: 'RequestingUserNotfound',
    });
  });
});

describe('a password set again through a secret key', () => {
  const subjectOf = (raw: string) => /^Subject: (.*)$/m.exec(raw)?.[1] ?? '';

  it('ends every session, mails the owner and the system administrators, and is audited', async () => {
    const owner = await buildUser(server.db);
    const ownerSession = await server.login(owner.username, owner.password);
    const admin = await server.login();
    const issued = await server.request<{ secretKey: string }>(
      'POST',
      `/api/v2/users/${owner.id}/resend-invitation`,
      { token: admin, body: { reason: 'Lost access', generateKey: true } },
    );
    expect(issued.status).toBe(200);
    const key = issued.body.secretKey;
    expect(key).toBeTruthy();

    const registered = await server.request<{ redirect: string }>('POST', '/api/v2/auth/register', {
      body: { username: owner.username, token: key },
    });
    expect(registered.status).toBe(200);
    const link = new URL(registered.body.redirect, 'http://x');
    const reset = await server.request('POST', '/api/v2/auth/reset-password', {
      body: {
        u: owner.id,
        token: link.searchParams.get('token'),
        password: 'Taken#Over1',
        confirmPassword: 'Taken#Over1',
      },
    });
    expect(reset.status).toBe(200);

    // Every session of the account ended.
    const me = await server.request('GET', '/api/v2/users/me', { token: ownerSession });
    expect(me.status).toBe(401);

    // The owner and the system administrator are told at once, through the real SMTP server.
    const toOwner = await smtp.waitFor(owner.email!);
    expect(subjectOf(toOwner.raw)).toBe('Your Carryover password was set with a secret key');
    expect(plainText(toOwner.raw)).toContain('contact your system administrator at once');
    const deadline = Date.now() + 10_000;
    const security = () =>
      smtp.messages.find(
        (m) => m.to.includes(ADMIN.email) && subjectOf(m.raw).includes(owner.username),
      );
    while (!security() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(subjectOf(security()!.raw)).toBe(
      `Security event: password of ${owner.username} set with a secret key`,
    );

    // The security event, and the row in the user's own history.
    const rows = await server.db.query<{ domain: string; action: string; new_values: object }>(
      `select domain, action, new_values from audit_log
        where entity_id = $1 and action = 'PasswordSetWithSecretKey' order by id`,
      [String(owner.id)],
    );
    expect(rows.map((r) => r.domain)).toEqual(['User', 'Security']);
    expect(rows[0]!.new_values).toMatchObject({ passwordChanged: true, endedSessions: 1 });
    expect(rows[1]!.new_values).toMatchObject({ endedSessions: 1, ownerMailed: true });

    // The user's own history shows it, to whoever may read the user.
    const history = await server.request<{ data: { domain: string; action: string }[] }>(
      'GET',
      `/api/v2/users/${owner.id}/history`,
      { token: admin },
    );
    expect(history.status).toBe(200);
    expect(
      history.body.data
        .filter((row) => row.action === 'PasswordSetWithSecretKey')
        .map((row) => row.domain)
        .sort(),
    ).toEqual(['Security', 'User']);

    // No answer, audit row or mail shows the key after it was issued.
    const read = await server.request('GET', `/api/v2/users/${owner.id}`, { token: admin });
    expect(read.status).toBe(200);
    const list = await server.request('GET', `/api/v2/users?search=${owner.username}`, {
      token: admin,
    });
    const audit = await server.db.query('select * from audit_log where entity_id = $1', [
      String(owner.id),
    ]);
    const seenAll = [read.body, list.body, history.body, audit, smtp.messages.map((m) => m.raw)];
    for (const seen of seenAll) {
      expect(JSON.stringify(seen)).not.toContain(key);
      expect(JSON.stringify(seen)).not.toContain('Taken#Over1');
    }
  });

  it("the user's history is refused without User Get, and answers 404 for a user it does not know", async () => {
    const owner = await buildUser(server.db);
    const stranger = await buildUser(server.db);
    const token = await server.login(stranger.username, stranger.password);
    const refused = await server.request('GET', `/api/v2/users/${owner.id}/history`, { token });
    expect(refused.status).toBe(403);
    const [row] = await server.db.query<{ domain: string }>(
      `select domain from audit_log where user_id = $1 and action = 'AccessRefused'`,
      [stranger.id],
    );
    expect(row).toEqual({ domain: 'User' });
    const admin = await server.login();
    const unknown = await server.request('GET', '/api/v2/users/2147483647/history', {
      token: admin,
    });
    expect(unknown.status).toBe(404);
  });

  it('is a plain registration on an account that never had a password: no alarm', async () => {
    const user = await buildUser(server.db, { email: null });
    await server.db.query('update users set password_hash = null where id = $1', [user.id]);
    const key = await issueOneTimeToken(server.db, user.id, 'secret', null);
    const registered = await server.request<{ redirect: string }>('POST', '/api/v2/auth/register', {
      body: { username: user.username, token: key },
    });
    const token = new URL(registered.body.redirect, 'http://x').searchParams.get('token');
    const reset = await server.request('POST', '/api/v2/auth/reset-password', {
      body: { u: user.id, token, password: 'First#Pass1', confirmPassword: 'First#Pass1' },
    });
    expect(reset.status).toBe(200);
    const [events] = await server.db.query<{ n: number }>(
      `select count(*)::int as n from audit_log
        where entity_id = $1 and action = 'PasswordSetWithSecretKey'`,
      [String(user.id)],
    );
    expect(events!.n).toBe(0);
  });
});
