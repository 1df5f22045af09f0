import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSignKit, type Person, type SignKit } from '#server/test/sign-test-kit.ts';
import {
  signInThroughProvider,
  startForgingProvider,
  startRealProvider,
  type ForgingProvider,
  type RealProvider,
} from './oidc-test-providers.ts';

const CLIENT = { clientId: 'carryover-sign', clientSecret: 'a-client-secret-of-the-sign-test' };

let kit: SignKit;
let real: RealProvider;
let forging: ForgingProvider;
let editor: Person;

beforeAll(async () => {
  kit = await startSignKit();
  real = await startRealProvider({
    ...CLIENT,
    redirectUris: [`${kit.server.url}/api/v2/auth/sso/okta/verify`],
  });
  forging = await startForgingProvider();
  editor = await kit.person({ edit: true, firstName: 'Edith' });
});
afterAll(async () => {
  await kit?.close();
  await real?.close();
  await forging?.close();
});

async function configure(issuer: string, provider: 'azure' | 'okta') {
  const current = await kit.call('GET', '/api/v2/users/sso-settings');
  const res = await kit.call('PUT', '/api/v2/users/sso-settings', {
    enabled: true,
    provider,
    issuer,
    clientId: CLIENT.clientId,
    clientSecret: CLIENT.clientSecret,
    logoutUrl: null,
    version: current.body.version,
    reason: 'SSO for signatures',
  });
  expect(res.status).toBe(200);
}

/** A signer who signed in before becoming a single sign-on user: the session stays. */
async function ssoSigner(): Promise<Person & { email: string }> {
  const person = await kit.person({ sign: true });
  const [row] = await kit.server.db.query<{ email: string }>(
    `update users set auth_type = 'sso' where id = $1 returning email`,
    [person.id],
  );
  return { ...person, email: row!.email };
}

async function submittedSop() {
  const sop = await kit.createSop(editor);
  const submit = await kit.signSop(sop.id, 'Submit', editor);
  expect(submit.status).toBe(200);
  return sop;
}

async function reauthUrl(as: Person) {
  const res = await kit.call('POST', '/api/v2/auth/sso/reauth', {}, as);
  expect(res.status).toBe(200);
  return new URL(res.body.url as string);
}

const signWithProof = (id: number, as: Person, ssoProof: string) =>
  kit.signSop(id, 'Approve', as, { password: undefined, ssoProof });

describe('a single sign-on user signs after a fresh sign-in at the provider', () => {
  beforeAll(async () => {
    await configure(real.issuer, 'okta');
  });

  it('asks the provider for a new sign-in of this user, and signs with the proof once', async () => {
    const signer = await ssoSigner();
    const sop = await submittedSop();
    const url = await reauthUrl(signer);
    expect(url.origin).toBe(real.issuer);
    expect(url.searchParams.get('prompt')).toBe('login');
    expect(url.searchParams.get('max_age')).toBe('0');
    expect(url.searchParams.get('login_hint')).toBe(signer.email);

    const back = await signInThroughProvider(kit.server.url, url.href, signer.email);
    expect(back.pathname).toBe('/sso-signature');
    const proof = back.searchParams.get('proof')!;
    expect(proof).toBeTruthy();
    expect(await kit.lastAudit('Authentication', 'SsoReauthenticated')).toMatchObject({
      user_id: signer.id,
    });

    const signed = await signWithProof(sop.id, signer, proof);
    expect(signed.status).toBe(200);
    expect(signed.body).toMatchObject({ document: { status: 'Approved' } });

    // Spent: the same proof signs nothing more.
    const next = await submittedSop();
    const again = await signWithProof(next.id, signer, proof);
    expect(again.status).toBe(422);
    expect(again.body.errors[0]).toMatchObject({ property: 'ssoProof' });
    expect(await kit.lastAudit('Authentication', 'SignatureFailed')).toMatchObject({
      user_id: signer.id,
    });
  });

  it('refuses a password, and a proof of another user, without counting toward the lockout', async () => {
    const signer = await ssoSigner();
    const other = await ssoSigner();
    const sop = await submittedSop();
    const byPassword = await kit.signSop(sop.id, 'Approve', signer);
    expect(byPassword.status).toBe(422);
    expect(byPassword.body.errors[0]).toMatchObject({
      property: 'ssoProof',
      constraints: { ssoProof: 'Sign in again with single sign-on to sign' },
    });
    const url = await reauthUrl(other);
    const back = await signInThroughProvider(kit.server.url, url.href, other.email);
    const theirs = await signWithProof(sop.id, signer, back.searchParams.get('proof')!);
    expect(theirs.status).toBe(422);
    const [row] = await kit.server.db.query<{ failed_attempts: number }>(
      'select failed_attempts from users where id = $1',
      [signer.id],
    );
    expect(row!.failed_attempts).toBe(0);
  });

  it('refuses a sign-in at the provider as someone else', async () => {
    const signer = await ssoSigner();
    const other = await ssoSigner();
    const url = await reauthUrl(signer);
    const back = await signInThroughProvider(kit.server.url, url.href, other.email);
    expect(back.pathname).toBe('/sso-signature');
    expect(back.searchParams.get('proof')).toBeNull();
    expect(back.searchParams.get('error')).toBe(
      'You signed in at the provider as someone else. Sign in as yourself to sign.',
    );
  });

  it('is not offered to a local user, who signs with a password and no proof', async () => {
    const local = await kit.person({ sign: true });
    const res = await kit.call('POST', '/api/v2/auth/sso/reauth', {}, local);
    expect(res.status).toBe(403);
    const sop = await submittedSop();
    const both = await kit.signSop(sop.id, 'Approve', local, { ssoProof: 'x'.repeat(43) });
    expect(both.status).toBe(422);
    const proofOnly = await signWithProof(sop.id, local, 'x'.repeat(43));
    expect(proofOnly.status).toBe(422);
    expect(proofOnly.body.errors[0]).toMatchObject({ property: 'ssoProof' });
  });
});

describe('the freshness of the provider’s sign-in', () => {
  beforeAll(async () => {
    await configure(forging.issuer, 'azure');
  });

  async function forgedReturn(signer: { email: string } & Person, extra: Record<string, unknown>) {
    const url = await reauthUrl(signer);
    const state = url.searchParams.get('state')!;
    const now = Math.floor(Date.now() / 1000);
    forging.nextIdToken = forging.idToken({
      iss: forging.issuer,
      aud: CLIENT.clientId,
      sub: `subject-${signer.email}`,
      email: signer.email,
      email_verified: true,
      nonce: url.searchParams.get('nonce'),
      iat: now,
      exp: now + 300,
      ...extra,
    });
    const res = await fetch(
      `${kit.server.url}/api/v2/auth/sso/azure/verify?code=c&state=${encodeURIComponent(state)}`,
      { redirect: 'manual' },
    );
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location')!, kit.server.url);
  }

  it('accepts an auth_time of now', async () => {
    const signer = await ssoSigner();
    const back = await forgedReturn(signer, { auth_time: Math.floor(Date.now() / 1000) });
    expect(back.searchParams.get('proof')).toBeTruthy();
  });

  it('refuses an ID token without auth_time, or with one over 60 s old', async () => {
    const signer = await ssoSigner();
    const none = await forgedReturn(signer, {});
    expect(none.pathname).toBe('/sso-signature');
    expect(none.searchParams.get('proof')).toBeNull();
    expect(none.searchParams.get('error')).toBe('The sign-in could not be verified.');
    const stale = await forgedReturn(signer, { auth_time: Math.floor(Date.now() / 1000) - 120 });
    expect(stale.searchParams.get('proof')).toBeNull();
    expect(stale.searchParams.get('error')).toMatch(/fresh sign-in|could not be verified/);
    const [{ count }] = (await kit.server.db.query<{ count: string }>(
      'select count(*) from sso_signing_proofs where user_id = $1',
      [signer.id],
    )) as [{ count: string }];
    expect(Number(count)).toBe(0);
  });
});
