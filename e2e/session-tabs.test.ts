import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_KEYS } from '#client/session/session-keys.ts';
import { ADMIN } from '#server/test/test-server.ts';
import { signIn, startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { newPage } from './browser.ts';
import {
  browserToken,
  choose,
  facilityApi,
  openDrawer,
  openMasterData,
  signInToFacility,
} from './ui.ts';
import { allowRefusedRequest } from './browser-errors.ts';

let app: AppUnderTest;
beforeAll(async () => {
  app = await startAppUnderTest();
});
afterAll(async () => {
  await app?.close();
});

const LOGGED_OUT = 'Logged Out. You are logged in on a different device!';

async function signedInPage(): Promise<Page> {
  const { page } = await newPage(app.browser, app.server.url);
  await page.goto('/');
  await signInToFacility(page);
  return page;
}

const facilityOf = (page: Page) =>
  page.evaluate((key) => sessionStorage.getItem(key), SESSION_KEYS.currentFacilityId);

async function isSessionValid(token: string): Promise<boolean> {
  return (await app.server.request('GET', '/api/v2/users/me', { token })).status === 200;
}

describe('one session in several tabs', () => {
  it('a second tab and a ctrl-click join the session; nobody is logged out; logout ends all', async () => {
    const first = await signedInPage();
    const token = await browserToken(first);

    // A ctrl-click on a menu entry opens it in a new tab, already signed in.
    const [clicked] = await Promise.all([
      first.context().waitForEvent('page'),
      first
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Reports', exact: true })
        .click({ modifiers: ['Control'] }),
    ]);
    await clicked.getByRole('button', { name: 'Logout' }).waitFor();
    expect(new URL(clicked.url()).pathname).toBe('/reports');
    expect(await browserToken(clicked)).toBe(token);

    // A tab opened by hand, straight at a page of the application.
    const typed = await first.context().newPage();
    await typed.goto('/audit-log');
    await typed.getByRole('button', { name: 'Logout' }).waitFor();
    expect(new URL(typed.url()).pathname).toBe('/audit-log');
    expect(await facilityOf(typed)).toBe(await facilityOf(first));

    // The first tab goes on working with the same session.
    await openMasterData(first, 'Equipment');
    expect(await first.getByText(LOGGED_OUT).count()).toBe(0);
    expect(await isSessionValid(token)).toBe(true);

    // Logging out in one tab ends the session in the others too.
    await typed.getByRole('button', { name: 'Logout' }).click();
    await first.getByText('Welcome User').waitFor();
    await clicked.getByText('Welcome User').waitFor();
    expect(await isSessionValid(token)).toBe(false);
    await first.context().close();
  });

  it('a sign-in elsewhere ends the session (419); signing in again keeps the page, facility and what was typed', async () => {
    // The other sign-in ends this session: the tab's next calls are refused with 419.
    allowRefusedRequest(419, /\/facilities\/\d+\/equipments/);
    allowRefusedRequest(419, '/api/v2/users/me');
    allowRefusedRequest(419, /\/plans\/\d+\/facilities/);
    allowRefusedRequest(419, '/api/v2/auth/session');
    // The live-update stream (issue 30) of a tab whose session ended is refused like its calls.
    allowRefusedRequest(419, /\/facilities\/\d+\/events/);
    // And so is any facility read a live update refetches in it just then (My approvals' count).
    allowRefusedRequest(419, /\/facilities\/\d+\/signatures\/pending/);
    const page = await signedInPage();
    const plant = await facilityApi(app);
    await openMasterData(page, 'Equipment');
    await page.getByRole('button', { name: 'Add equipment' }).first().click();
    await openDrawer(page).getByLabel('Name', { exact: true }).fill('Mixer kept');
    await openDrawer(page).getByLabel('Surface area', { exact: true }).fill('10');
    await choose(openDrawer(page).getByLabel('Surface area unit', { exact: true }), 'm²');

    // The same user signs in in another browser: this one's session ends.
    const other = await signedInPage();
    await openDrawer(page).getByRole('button', { name: 'Add equipment' }).click();
    // The warning; the drawer's form shows the rethrown error too (spec §8), sometimes first.
    await page.locator('.ant-message').getByText(LOGGED_OUT).waitFor();
    const dialog = page.getByRole('dialog', { name: 'Logged Out' });
    await dialog.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await dialog.getByRole('button', { name: 'Log In' }).click();
    await dialog.waitFor({ state: 'hidden' });

    expect(new URL(page.url()).pathname).toBe('/master-data/equipments');
    expect(await facilityOf(page)).toBe(String(plant.id));
    expect(await openDrawer(page).getByLabel('Name', { exact: true }).inputValue()).toBe(
      'Mixer kept',
    );
    expect(await isSessionValid(await browserToken(page))).toBe(true);
    await openDrawer(page).getByRole('button', { name: 'Add equipment' }).click();
    await page.getByRole('cell', { name: 'Mixer kept' }).waitFor();

    // A page reloaded after its session ended opens the Login screen in redirect mode, which
    // leads back to the same page and facility.
    const path = '/audit-log';
    await other.goto(path);
    await other.getByRole('dialog', { name: 'Logged Out' }).waitFor();
    await other.reload();
    await other.getByText('Welcome User').waitFor();
    expect(new URL(other.url()).searchParams.get('redirect')).toBe('true');
    await signIn(other, ADMIN.email, ADMIN.password);
    await other.getByRole('button', { name: 'Logout' }).waitFor();
    expect(new URL(other.url()).pathname).toBe(path);
    expect(await facilityOf(other)).toBe(String(plant.id));
    await page.context().close();
    await other.context().close();
  });

  it('the warning of a failed sign-in goes once the sign-in succeeds', async () => {
    allowRefusedRequest(400, '/api/v2/auth/login');
    const { page } = await newPage(app.browser, app.server.url);
    await page.goto('/');
    await signIn(page, ADMIN.email, 'Wrong#pass1');
    const warning = page
      .locator('.ant-message')
      .getByText(/Invalid Email\/Employee ID or password/);
    await warning.waitFor();
    await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v2/auth/login') && r.ok()),
      signIn(page, ADMIN.email, ADMIN.password),
    ]);
    // Well before the warning's own 4 s are up.
    await warning.waitFor({ state: 'detached', timeout: 1500 });
    await page.context().close();
  });
});
