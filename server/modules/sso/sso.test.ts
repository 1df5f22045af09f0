import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '#server/test/factories.ts';
import { startTestServer, type TestServer } from '#server/test/test-server.ts';
import {
  signInThroughProvider,
  startForgingProvider,
  startRealProvider,
  type ForgingProvider,
  type RealProvider,
} from './oidc-test-providers.ts';

const CLIENT = { clientId: 'carryover-test', clientSecret: 'a-client-secret-of-the-test' };
const NOT_REGISTERED =
  'Your account is not registered for single sign-on. Contact your administrator.';

let server: TestServer;
let admin: string;
let real: RealProvider;
let forging: ForgingProvider;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login();
  real = await startRealProvider({
    ...CLIENT,
    redirectUris: [`${server.url}/api/v2/auth/sso/okta/verify`],
  });
  forging = await startForgingProvider();
});
afterAll(async () => {
  await server?.close();
  await real?.close();
  await forging?.close();
});

async function configure(issuer: string, provider: 'azure' | 'okta', enabled = true) {
  const current = await server.request<{ version: number }>('GET', '/api/v2/users/sso-settings', {
    token: admin,
  });
  const res = await server.request('PUT', '/api/v2/users/sso-settings', {
    token: admin,
    body: {
      enabled,
      provider,
      issuer,
      clientId: CLIENT.clientId,
      clientSecret: CLIENT.clientSecret,
      logoutUrl: `${issuer}/session/end`,
      version: current.body.version,
      reason: 'SSO set-up for the test',
    },
  });
  expect(res.status).toBe(200);
  return res;
}

async function ssoUser(options: { archived?: boolean; authType?: string } = {}) {
  const user = await buildUser(server.db);
  await server.db.query(
    `update users set auth_type = $2, archived_at = case when $3 then now() end where id = $1`,
    [user.id, options.authType ?? 'sso', options.archived ?? false],
  );
  return user;
}

async function lastAudit(domain: string, action?: string) {
  const [row] = await server.db.query<Record<string, unknown>>(
    `select user_id, action, reason, old_values, new_values from audit_log
      where domain = $1 and ($2::text is null or action = $2) order by id desc limit 1`,
    [domain, action ?? null],
  );
  return row;
}

describe('SSO settings and features', () => {
  it('reports SSO off until it is configured', async () => {
    const res = await server.request('GET', '/api/v2/features');
    expect(res.body).toEqual({ SSO: false, SSOProvider: null, logoutUrl: null });
    const login = await server.request('GET', '/api/v2/auth/sso/okta/login?u=x');
    expect(login.status).toBe(404);
  });

  it('stores the secret encrypted, never returns it, audits the change, and reports the flags', async () => {
    const res = await configure(real.issuer, 'okta');
    expect(res.body).toMatchObject({ enabled: true, provider: 'okta', hasClientSecret: true });
    expect(JSON.stringify(res.body)).not.toContain(CLIENT.clientSecret);
    const [row] = await server.db.query<{ sso_client_secret: string }>(
      'select sso_client_secret from plan_settings order by plan_id limit 1',
    );
    expect(row!.sso_client_secret).not.toContain(CLIENT.clientSecret);
    const audit = await lastAudit('SsoSettings');
    expect(audit).toMatchObject({ action: 'Update', reason: 'SSO set-up for the test' });
    expect(JSON.stringify(audit)).not.toContain(CLIENT.clientSecret);
    const features = await server.request('GET', '/api/v2/features');
    expect(features.body).toEqual({
      SSO: true,
      SSOProvider: 'okta',
      logoutUrl: `${real.issuer}/session/end`,
    });
  });

  it('refuses a bad issuer with 422 and a stale version with 409, changing nothing', async () => {
    const current = await server.request<{ version: number }>('GET', '/api/v2/users/sso-settings', {
      token: admin,
    });
    const body = {
      enabled: true,
      provider: 'okta',
      issuer: 'not a url',
      clientId: 'x',
      logoutUrl: null,
      version: current.body.version,
      reason: 'r',
    };
    const bad = await server.request('PUT', '/api/v2/users/sso-settings', { token: admin, body });
    expect(bad.status).toBe(422);
    const stale = await server.request('PUT', '/api/v2/users/sso-settings', {
      token: admin,
      body: { ...body, issuer: 'https://example.com', version: current.body.version - 1 },
    });
    expect(stale.status).toBe(409);
    const after = await server.request('GET', '/api/v2/users/sso-settings', { token: admin });
    expect(after.body).toEqual(current.body);
  });

  it('refuses the settings to a user without User permissions', async () => {
    const user = await buildUser(server.db, { permissions: { AuditLog: ['Get'] } as never });
    const token = await server.login(user.username, user.password);
    const res = await server.request('GET', '/api/v2/users/sso-settings', { token });
    expect(res.status).toBe(403);
  });
});

describe('the redirect flow against a real OpenID provider', () => {
  beforeAll(async () => {
    await configure(real.issuer, 'okta');
  });

  it('redirects with PKCE, state and nonce, and signs the SSO user in', async () => {
    const user = await ssoUser();
    const start = await fetch(
      `${server.url}/api/v2/auth/sso/okta/login?u=${encodeURIComponent(user.email!)}`,
      { redirect: 'manual' },
    );
    expect(start.status).toBe(302);
    const to = new URL(start.headers.get('location')!);
    expect(to.origin).toBe(real.issuer);
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    expect(to.searchParams.get('code_challenge')).toBeTruthy();
    expect(to.searchParams.get('state')).toBeTruthy();
    expect(to.searchParams.get('nonce')).toBeTruthy();
    expect(to.searchParams.get('login_hint')).toBe(user.email);

    const back = await signInThroughProvider(server.url, to.href, user.email!);
    expect(back.pathname).toBe('/');
    expect(back.searchParams.get('sso')).toBe('true');
    const token = back.searchParams.get('token')!;
    const me = await server.request<{ id: number }>('GET', '/api/v2/users/me', { token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);
    const facilities = await server.request(
      'GET',
      `/api/v2/plans/${(me.body as { planId?: number }).planId}/facilities?sso=true`,
      { token },
    );
    expect(facilities.status).toBe(200);
    expect(await lastAudit('Authentication', 'SsoLogin')).toMatchObject({
      user_id: user.id,
      new_values: expect.objectContaining({ provider: 'okta', subject: user.email }),
    });
  });

  it('refuses an unknown, an archived or a local user with the error in the address', async () => {
    const archived = await ssoUser({ archived: true });
    const local = await ssoUser({ authType: 'local' });
    for (const login of ['nobody@example.com', archived.email!, local.email!]) {
      const start = await fetch(`${server.url}/api/v2/auth/sso/okta/login`, { redirect: 'manual' });
      const back = await signInThroughProvider(server.url, start.headers.get('location')!, login);
      expect(back.searchParams.get('token')).toBeNull();
      expect(back.searchParams.get('error')).toBe(
        'Your account is not registered for single sign-on. Contact your administrator.',
      );
    }
    expect(await lastAudit('Authentication', 'SsoLoginFailed')).toBeTruthy();
  });

  async function signIn(login: string) {
    const start = await fetch(`${server.url}/api/v2/auth/sso/okta/login`, { redirect: 'manual' });
    return signInThroughProvider(server.url, start.headers.get('location')!, login);
  }
  const signedInAs = async (back: URL) => {
    const token = back.searchParams.get('token');
    if (!token) return back.searchParams.get('error');
    const me = await server.request<{ id: number }>('GET', '/api/v2/users/me', { token });
    return me.body.id;
  };

  it('links the account at the first sign-in, then finds it by issuer and subject alone', async () => {
    const user = await ssoUser();
    // The provider's subject is the login name at the test provider.
    expect(await signedInAs(await signIn(user.email!))).toBe(user.id);
    const [link] = await server.db.query(
      'select issuer, subject from sso_identities where user_id = $1',
      [user.id],
    );
    expect(link).toEqual({ issuer: real.issuer, subject: user.email });
    expect(await lastAudit('User', 'SsoIdentityLinked')).toMatchObject({
      user_id: user.id,
      new_values: expect.objectContaining({ issuer: real.issuer, subject: user.email }),
    });
    // The account's e-mail changes here: the link still finds it by the provider's identity.
    const renamed = `renamed.${user.email}`;
    await server.db.query('update users set email = $2 where id = $1', [user.id, renamed]);
    expect(await signedInAs(await signIn(user.email!))).toBe(user.id);
    // Another identity of the provider with the account's verified e-mail is not this account.
    expect(await signedInAs(await signIn(`someone-else|${renamed}`))).toBe(NOT_REGISTERED);
    const [count] = await server.db.query<{ n: number }>(
      'select count(*)::int as n from sso_identities where user_id = $1',
      [user.id],
    );
    expect(count!.n).toBe(1);
  });

  it('matches an e-mail only when the provider verified it, and never a username', async () => {
    const user = await ssoUser();
    expect(await signedInAs(await signIn(`unverified:${user.email}`))).toBe(NOT_REGISTERED);
    expect(await signedInAs(await signIn(`username:${user.username}`))).toBe(NOT_REGISTERED);
    expect(await signedInAs(await signIn(`username:${user.email}`))).toBe(NOT_REGISTERED);
    const [links] = await server.db.query<{ n: number }>(
      'select count(*)::int as n from sso_identities where user_id = $1',
      [user.id],
    );
    expect(links!.n).toBe(0);
    const refused = await lastAudit('Authentication', 'SsoLoginFailed');
    expect(JSON.stringify(refused)).toMatch(/no account linked/);
    // The same account, once the provider verifies its e-mail, signs in.
    expect(await signedInAs(await signIn(user.email!))).toBe(user.id);
  });

  it('refuses a password sign-in of an SSO user', async () => {
    const user = await ssoUser();
    const res = await server.request('POST', '/api/v2/auth/login', {
      body: { username: user.username, password: user.password },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      errName: 'InvalidEmailOrPasswordError',
      message: 'This account signs in with single sign-on.',
    });
  });

  it('answers 404 for the provider that is not configured', async () => {
    const res = await fetch(`${server.url}/api/v2/auth/sso/azure/login`, { redirect: 'manual' });
    expect(res.status).toBe(404);
  });
});

describe('forged and bad tokens are refused', () => {
  beforeAll(async () => {
    await configure(forging.issuer, 'azure');
  });

  /** Starts a sign-in and returns the state and nonce the provider was sent. */
  async function begin() {
    const start = await fetch(`${server.url}/api/v2/auth/sso/azure/login`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const to = new URL(start.headers.get('location')!);
    return { state: to.searchParams.get('state')!, nonce: to.searchParams.get('nonce')! };
  }

  async function finish(state: string) {
    const res = await fetch(
      `${server.url}/api/v2/auth/sso/azure/verify?code=c&state=${encodeURIComponent(state)}`,
      { redirect: 'manual' },
    );
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location')!, server.url);
  }

  function claims(email: string, nonce: string, overrides: Record<string, unknown> = {}) {
    const now = Math.floor(Date.now() / 1000);
    return {
      iss: forging.issuer,
      aud: CLIENT.clientId,
      sub: `subject-${email}`,
      email,
      email_verified: true,
      nonce,
      iat: now,
      exp: now + 300,
      ...overrides,
    };
  }

  it('accepts a well-formed token (the forging provider itself is sound)', async () => {
    const user = await ssoUser();
    const { state, nonce } = await begin();
    forging.nextIdToken = forging.idToken(claims(user.email!, nonce));
    const back = await finish(state);
    expect(back.searchParams.get('token')).toBeTruthy();
    // The state is spent: the same callback again is refused.
    const again = await finish(state);
    expect(again.searchParams.get('token')).toBeNull();
    expect(again.searchParams.get('error')).toBe('The sign-in expired. Try again.');
  });

  const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const cases: [string, (email: string, nonce: string) => string][] = [
    ['wrong audience', (e, n) => forging.idToken(claims(e, n, { aud: 'someone-else' }))],
    ['wrong issuer', (e, n) => forging.idToken(claims(e, n, { iss: 'https://evil.example' }))],
    ['expired', (e, n) => forging.idToken(claims(e, n, { iat: 1_000_000, exp: 1_000_300 }))],
    ['alg none', (e, n) => forging.idToken(claims(e, n), { alg: 'none' })],
    ['a foreign key', (e, n) => forging.idToken(claims(e, n), { key: otherKey })],
    ['a wrong nonce', (e) => forging.idToken(claims(e, 'another-nonce'))],
  ];
  for (const [name, forge] of cases) {
    it(`refuses a token with ${name}`, async () => {
      const user = await ssoUser();
      const { state, nonce } = await begin();
      forging.nextIdToken = forge(user.email!, nonce);
      const back = await finish(state);
      expect(back.searchParams.get('token')).toBeNull();
      expect(back.searchParams.get('error')).toBe('The sign-in could not be verified.');
      const audit = await lastAudit('Authentication', 'SsoLoginFailed');
      expect(String((audit!.new_values as { reason: string }).reason)).toMatch(/token refused/);
    });
  }

  it('never takes preferred_username or upn for the account, even when they name it', async () => {
    const user = await ssoUser();
    const { state, nonce } = await begin();
    const { email: _none, ...noEmail } = claims(user.email!, nonce);
    forging.nextIdToken = forging.idToken({
      ...noEmail,
      preferred_username: user.username,
      upn: user.email,
    });
    const back = await finish(state);
    expect(back.searchParams.get('token')).toBeNull();
    expect(back.searchParams.get('error')).toBe(NOT_REGISTERED);
  });

  it('refuses an unknown state', async () => {
    const back = await finish('made-up-state');
    expect(back.searchParams.get('error')).toBe('The sign-in expired. Try again.');
  });
});
