import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '#server/test/factories.ts';
import { ADMIN } from '#server/test/test-server.ts';
import { signIn, startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { allowRefusedRequest } from './browser-errors.ts';

let app: AppUnderTest;
beforeAll(async () => {
  app = await startAppUnderTest();
});
afterAll(async () => {
  await app?.close();
});

async function warning(page: Page, text: string | RegExp): Promise<void> {
  await page.locator('.ant-message').getByText(text).waitFor();
}

describe('signing in', () => {
  it('signs in, chooses a facility from the accordion and reaches the application', async () => {
    const page = await app.open('/');
    await page.getByText('Welcome User').waitFor();
    await page.getByText('Provide your credentials below to login').waitFor();
    await page.getByText('Cleaning Validation Risk Management Platform').waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);

    await page.getByText('Choose Facility').first().waitFor();
    await page.getByText('Main Site').waitFor();
    // Each facility says what it makes and its tier.
    await page.getByRole('button', { name: 'API Plant API · Lite' }).waitFor();
    await page.getByRole('button', { name: 'Oral Solid Dosage Plant Product · Full' }).waitFor();
    await page.getByRole('button', { name: 'API Plant' }).click();

    await page.getByRole('button', { name: 'Logout' }).waitFor();
    await page.getByText('System Administrator').first().waitFor();
    const stored = await page.evaluate(() => ({
      facility: sessionStorage.getItem('currentFacilityId'),
      productType: sessionStorage.getItem('productType'),
      tier: sessionStorage.getItem('tier'),
      token: sessionStorage.getItem('token'),
    }));
    const [apiPlant] = await app.server.db.query<{ id: number }>(
      `select id from facilities where name = 'API Plant'`,
    );
    expect(stored).toMatchObject({
      facility: String(apiPlant!.id),
      productType: 'api',
      tier: 'lite',
    });
    expect(stored.token).toBeTruthy();
  });

  it('selects the only facility of a user automatically', async () => {
    const [facility] = await app.server.db.query<{ id: number }>(
      'select id from facilities order by id limit 1',
    );
    const user = await buildUser(app.server.db, { facilityIds: [facility!.id] });
    const page = await app.open('/sign-in');
    await signIn(page, user.username, user.password);
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('currentFacilityId'))).toBe(
      String(facility!.id),
    );
    await page.getByText('Oral Solid Dosage Plant').first().waitFor();
  });

  it('warns about a wrong password and stays on the sign-in screen', async () => {
    allowRefusedRequest(400, '/api/v2/auth/login');
    const user = await buildUser(app.server.db);
    const page = await app.open('/');
    await signIn(page, user.username, 'Wrong#pass1');
    await warning(page, /Invalid Email\/Employee ID or password/);
    expect(await page.getByRole('button', { name: 'Log In' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeNull();
  });

  it('locks the account after the policy number of failures', async () => {
    allowRefusedRequest(400, '/api/v2/auth/login');
    const user = await buildUser(app.server.db);
    const page = await app.open('/');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/v2/auth/login')),
        signIn(page, user.username, 'Wrong#pass1'),
      ]);
    }
    await warning(page, /locked/);
    await signIn(page, user.username, user.password);
    await warning(page, /locked/);
    expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeNull();
  });

  it('sends a first-time user to change the password, then lets them sign in with it', async () => {
    // The server answers the first sign-in with 400 and the message that sends the user on.
    allowRefusedRequest(400, '/api/v2/auth/login');
    const user = await buildUser(app.server.db, { mustChangePassword: true });
    const page = await app.open('/');
    await signIn(page, user.username, user.password);
    await warning(
      page,
      'You are logging in for the first time, you will be redirected to change your password shortly',
    );
    await page.waitForURL(/\/reset-password\?/, { timeout: 10_000 });
    await page.getByText('Please set a new password').waitFor();
    const button = page.getByRole('button', { name: 'Complete Registration' });
    await page.getByLabel('Password', { exact: true }).fill('Fresh#Pass7');
    expect(await button.isDisabled()).toBe(true);
    await page.getByLabel('Re-enter Password').fill('Fresh#Pass7');
    await page.getByText('Passwords Match').waitFor();
    await button.click();
    await page.getByText('Reset Password Successful').waitFor();
    await page.waitForURL((url) => url.pathname === '/' || url.pathname === '/sign-in');

    await signIn(page, user.username, 'Fresh#Pass7');
    await page
      .getByRole('button', { name: 'Logout' })
      .or(page.getByText('Choose Facility').first())
      .waitFor();
  });

  it('shows the set-password fields at once, so what is typed while the link is checked is kept', async () => {
    allowRefusedRequest(400, '/api/v2/auth/login');
    const user = await buildUser(app.server.db, { mustChangePassword: true });
    const page = await app.open('/');
    // The link check answers only once the user has typed: a slow server must not lose keys.
    let typed = (): void => undefined;
    const typing = new Promise<void>((resolve) => (typed = resolve));
    await page.route(/\/api\/v2\/auth\/reset-password\?/, async (route) => {
      await typing;
      await route.continue();
    });
    await signIn(page, user.username, user.password);
    await page.waitForURL(/\/reset-password\?/, { timeout: 10_000 });
    await page.getByText('Please set a new password').waitFor();
    // No wait for any field: the user types as soon as the screen changes.
    await page.keyboard.type('Fresh#Pass7');
    typed();
    await page.getByRole('list', { name: 'Password requirements' }).waitFor();
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('Fresh#Pass7');
    await expect.poll(() => page.getByLabel('Email/Employee ID').inputValue()).not.toBe('');
  });

  it('ends the session when the same user signs in on another device', async () => {
    allowRefusedRequest(419, '/api/v2/users/me');
    allowRefusedRequest(419, /\/plans\/\d+\/facilities/);
    allowRefusedRequest(419, '/api/v2/auth/session');
    const [facility] = await app.server.db.query<{ id: number }>(
      'select id from facilities order by id limit 1',
    );
    const user = await buildUser(app.server.db, { facilityIds: [facility!.id] });
    const first = await app.open('/');
    await signIn(first, user.username, user.password);
    await first.getByRole('button', { name: 'Logout' }).waitFor();

    const second = await app.open('/');
    await signIn(second, user.username, user.password);
    await second.getByRole('button', { name: 'Logout' }).waitFor();

    await first.reload();
    await warning(first, 'Logged Out. You are logged in on a different device!');
    await first.getByRole('button', { name: 'Log In' }).waitFor();
  });

  it('logs out from the application and from the /logout address', async () => {
    allowRefusedRequest(401, '/api/v2/auth/session');
    const [facility] = await app.server.db.query<{ id: number }>(
      'select id from facilities order by id limit 1',
    );
    const user = await buildUser(app.server.db, { facilityIds: [facility!.id] });
    const page = await app.open('/');
    await signIn(page, user.username, user.password);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Log In' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeNull();

    await signIn(page, user.username, user.password);
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    const token = await page.evaluate(() => sessionStorage.getItem('token'));
    await page.goto(`/logout?token=${token}`);
    await page.getByRole('button', { name: 'Log In' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    const me = await app.server.request('GET', '/api/v2/users/me', { token: token! });
    expect(me.status).toBe(401);
  });

  it('sends unknown paths to the sign-in screen', async () => {
    const page = await app.open('/no/such/page');
    await page.getByRole('button', { name: 'Log In' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
  });
});
