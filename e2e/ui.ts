import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Facility, Features, LoginResponse } from '#client/api/auth-types.ts';
import { facilityEntries, featuresEntries, loginEntries } from '#client/session/session-entries.ts';
import {
  LAST_SERVER_CALL_KEY,
  LOGGED_IN_FLAG_KEY,
  SESSION_KEYS,
} from '#client/session/session-keys.ts';
import { adminActor } from '#server/test/factories/admin.ts';
import { recordFactory } from '#server/test/factories/entities.ts';
import { ADMIN } from '#server/test/test-server.ts';
import { signIn, startAppUnderTest, type AppUnderTest } from './app-under-test.ts';

export const PLANT = 'Oral Solid Dosage Plant';

/** Who signs in unless a test says otherwise: the seeded administrator. */
interface Credentials {
  username: string;
  password: string;
}
const ADMIN_USER: Credentials = { username: ADMIN.email, password: ADMIN.password };

/** Signs in (the administrator unless told) and picks the facility, waiting for the shell. */
export async function signInToFacility(
  page: Page,
  facility = PLANT,
  user: Credentials = ADMIN_USER,
): Promise<void> {
  await signIn(page, user.username, user.password);
  await page.getByRole('button', { name: facility }).click();
  await page.getByRole('button', { name: 'Logout' }).waitFor();
}

/**
 * A new page at `path` with the user (the administrator unless told) signed in to the facility,
 * for a test that is not about signing in. The sign-in screens cost a new page about a second of
 * the browser's CPU (a load of the sign-in page, the facility choice, then the shell): here the
 * login is the same API call, and its session is the entries the client's own sign-in writes
 * (session-entries.ts) and the login's cookie, set before the app's only load.
 */
export async function openSignedIn(
  app: AppUnderTest,
  path = '/',
  {
    facility = PLANT,
    user = ADMIN_USER,
    viewport,
  }: {
    facility?: string;
    user?: Credentials;
    viewport?: { width: number; height: number };
  } = {},
): Promise<Page> {
  const login = await app.server.request<LoginResponse>('POST', '/api/v2/auth/login', {
    body: user,
  });
  if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
  const { token } = login.body;
  const [facilities, features] = await Promise.all([
    app.server.request<{ facilities: Facility[] }>(
      'GET',
      `/api/v2/plans/${login.body.user.planId}/facilities`,
      { token },
    ),
    app.server.request<Features>('GET', '/api/v2/features'),
  ]);
  const chosen = facilities.body.facilities.find((f) => f.name === facility);
  if (!chosen) throw new Error(`${user.username} has no facility named ${facility}`);
  const session = {
    ...loginEntries(login.body),
    ...featuresEntries(features.body),
    ...facilityEntries(chosen),
  };
  const shared = { [LOGGED_IN_FLAG_KEY]: 'true', [LAST_SERVER_CALL_KEY]: String(Date.now()) };
  // Storage belongs to the origin: a file of the app's, without its code, opens it.
  const page = await app.open('/favicon.svg', viewport);
  // The session cookie the login set: the live updates' event stream sends no token header.
  const cookie = /^([^=]+)=([^;]*)/.exec(login.headers.getSetCookie()[0] ?? '');
  if (!cookie) throw new Error('the login set no session cookie');
  await page
    .context()
    .addCookies([
      { name: cookie[1]!, value: cookie[2]!, url: app.server.url, httpOnly: true, sameSite: 'Lax' },
    ]);
  await page.evaluate(
    ([tab, browser]) => {
      for (const [key, value] of Object.entries(tab!)) sessionStorage.setItem(key, value);
      for (const [key, value] of Object.entries(browser!)) localStorage.setItem(key, value);
    },
    [session, shared],
  );
  await page.goto(path);
  await page.getByRole('button', { name: 'Logout' }).waitFor();
  return page;
}

/**
 * The administrator, signed in to the plant, on an administration page: the menu follows the
 * facility's permissions, which arrive after the shell renders.
 */
export async function openAsAdmin(app: AppUnderTest, path: string, heading: string): Promise<Page> {
  const page = await openSignedIn(app, path);
  const entry = page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Users', exact: true });
  await expect.poll(() => entry.count(), { timeout: 15_000 }).toBeGreaterThan(0);
  await page.getByRole('heading', { name: heading }).waitFor();
  return page;
}

/** A fresh app with the administrator signed in to the plant in its browser. */
export async function startSignedIn(): Promise<{ app: AppUnderTest; page: Page }> {
  const app = await startAppUnderTest();
  const page = await openSignedIn(app);
  return { app, page };
}

/** The session token the browser holds: one session per user, so a test's API calls use it. */
export function browserToken(page: Page): Promise<string> {
  return page.evaluate((key) => sessionStorage.getItem(key) ?? '', SESSION_KEYS.token);
}

/** The facility's id and the API path under which its data lives. */
export async function facilityApi(
  app: AppUnderTest,
  name = PLANT,
): Promise<{ id: number; path: string }> {
  const [f] = await app.server.db.query<{ id: number; plan_id: number }>(
    'select id, plan_id from facilities where name = $1',
    [name],
  );
  if (!f) throw new Error(`no facility named ${name}`);
  return { id: f.id, path: `/api/v2/plans/${f.plan_id}/facilities/${f.id}` };
}

/** Creates a record through the API and returns its id; a refusal fails the test with its body. */
export async function createViaApi(
  app: AppUnderTest,
  token: string,
  path: string,
  body: unknown,
): Promise<number> {
  const res = await app.server.request<{ result: { id: number } }>('POST', path, { token, body });
  if (res.status !== 200)
    throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result.id;
}

/**
 * Creates records under a facility's API path as the administrator, each returning its id. It
 * signs in on its own: call it before the browser signs in (a new sign-in ends the other).
 */
export async function facilityCreator(
  app: AppUnderTest,
  facilityPath: string,
): Promise<(path: string, body: unknown) => Promise<number>> {
  const token = await app.server.login();
  return (path, body) => createViaApi(app, token, `${facilityPath}/${path}`, body);
}

/**
 * Writes records of the facility at `facilityPath` as the administrator through the app's own
 * write path (the test factories), each returning its id: the records facilityCreator's POSTs
 * make, without a request each. It needs no session, so it may run after the browser signed in.
 */
export async function facilityRecords(
  app: AppUnderTest,
  facilityPath: string,
): Promise<(path: string, body: unknown) => Promise<number>> {
  const scope = facilityScope(facilityPath);
  return recordFactory(app.server.db, scope, await adminActor(app.server.db));
}

/** The plan and facility of a facility's API path, as the factories take them. */
export function facilityScope(facilityPath: string): { planId: number; facilityId: number } {
  const [, planId, facilityId] = /plans\/(\d+)\/facilities\/(\d+)/.exec(facilityPath) ?? [];
  if (!facilityId) throw new Error(`not a facility path: ${facilityPath}`);
  return { planId: Number(planId), facilityId: Number(facilityId) };
}

/** The drawer on top; antd keeps closed drawers in the page, so only an open one counts. */
export const openDrawer = (page: Page): Locator =>
  page.locator('.ant-drawer-open .ant-drawer-section').last();

/** The modal on top; closed antd modals stay in the page hidden. */
export const openModal = (page: Page): Locator =>
  page.locator('.ant-modal-wrap:visible .ant-modal').last();

/**
 * Types a moment into a facility date-time picker as the facility writes it ('02 Nov, 2026
 * 08:00' in the default format) and confirms it, as a user at the keyboard does.
 */
export async function fillDateTime(input: Locator, text: string): Promise<void> {
  await input.click();
  await input.fill(text);
  await input.press('Enter');
  await expect.poll(() => input.inputValue()).toBe(text);
}

/** The 'Discard your changes?' confirmation, once it shows. */
export async function discardQuestion(page: Page): Promise<Locator> {
  const ask = openModal(page);
  // The confirmation's visible title (antd also renders it as the dialog's accessible name).
  await ask.locator('.ant-modal-confirm-title', { hasText: 'Discard your changes?' }).waitFor();
  return ask;
}

/**
 * Cancels the drawer on top when its form holds changes: the drawer asks 'Discard your
 * changes?' first, and closes only once the user discards them.
 */
export async function discardDrawer(page: Page): Promise<void> {
  const drawers = await page.locator('.ant-drawer-open').count();
  await openDrawer(page).getByRole('button', { name: 'Cancel' }).click();
  await (await discardQuestion(page)).getByRole('button', { name: 'Discard' }).click();
  await expect.poll(() => page.locator('.ant-drawer-open').count()).toBe(drawers - 1);
}

/** Gives the reason in the dialog on top and confirms it. */
export async function confirmWithReason(
  page: Page,
  reason: string,
  button = 'Save',
): Promise<void> {
  const dialog = page.getByRole('dialog').last();
  await dialog.getByLabel('Reason').fill(reason);
  await dialog.getByRole('button', { name: button, exact: true }).click();
  // Saved, refused or in conflict, the dialog closes; the next step must not find it closing.
  // A save waits on the server, which shares two cores with the rest of the suite.
  await expect.poll(() => page.getByRole('dialog').count(), { timeout: 30_000 }).toBe(0);
}

/** Opens an entry of the Master data menu and waits for its page. */
export async function openMasterData(page: Page, link: string, heading = link): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Master data' })
    .click();
  await page
    .getByRole('navigation', { name: 'Master data' })
    .getByRole('link', { name: link, exact: true })
    .click();
  await page.getByRole('heading', { name: heading, exact: true }).waitFor();
}

/**
 * Opens a waiting record from My approvals. The home page lists the same records as links: the
 * record's link is taken from My approvals' own table once its heading shows, or a click may land
 * on the home page's link as the route changes under it and be lost.
 */
export async function openFromMyApprovals(page: Page, record: string | RegExp): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /My approvals/ })
    .click();
  await page.getByRole('heading', { name: 'My approvals', exact: true }).waitFor();
  await page.getByRole('table').getByRole('link', { name: record }).click();
}

/**
 * Clicks a link and waits for the page it leads to. A click on a loaded machine, as a drawer's
 * panel finishes opening, was once taken by nothing (no navigation, no error): it is tried again,
 * three times at most, while the address stays where it was.
 */
export async function followLink(link: Locator, to: RegExp): Promise<void> {
  const page = link.page();
  for (let attempt = 0; ; attempt++) {
    await link.click();
    try {
      await page.waitForURL(to, { timeout: 5000 });
      return;
    } catch (error) {
      if (attempt >= 2) throw error;
    }
  }
}

/**
 * Picks each option of an antd Select and checks the select shows it. The first opening of a
 * dropdown animates in and a click during it may miss, so a choice that did not take is tried
 * again (three times at most).
 */
export async function choose(select: Locator, ...options: string[]): Promise<void> {
  const page = select.page();
  const root = select.locator(
    "xpath=ancestor::div[contains(concat(' ', normalize-space(@class), ' '), ' ant-select ')][1]",
  );
  for (const option of options) {
    for (let attempt = 0; ; attempt++) {
      if ((await select.getAttribute('aria-expanded')) !== 'true') await select.click();
      // A searching select may list only the first options; typing brings this one into view.
      if (await select.isEditable()) await select.fill(option);
      // Only this select's dropdown: another one may still be fading out, holding the same title.
      const list = await select.getAttribute('aria-controls');
      const dropdown = list
        ? page.locator('.ant-select-dropdown').filter({ has: page.locator(`[id="${list}"]`) })
        : page;
      await dropdown.locator(`.ant-select-item-option[title="${option}"]:visible`).click();
      try {
        await root.getByText(option, { exact: true }).waitFor({ timeout: 2000 });
        break;
      } catch (error) {
        if (attempt >= 2) throw error;
      }
    }
  }
  // A multiple select stays open after a choice, and Escape closes it. A single select closes by
  // itself, if a moment after the click: Escape sent to it then reaches the modal around it and
  // closes that instead, with everything typed in it (seen under load in CI).
  const multiple = await root.evaluate((el) => el.classList.contains('ant-select-multiple'));
  if (multiple) {
    if ((await select.getAttribute('aria-expanded')) === 'true') await select.press('Escape');
  } else {
    await expect.poll(() => select.getAttribute('aria-expanded')).not.toBe('true');
  }
}

/**
 * Signs in the open sign dialog with `password`: `action` is the button's verb ('submit').
 * The dialog's Meaning is filled once its form has mounted; a click before then is refused by
 * the form's own rule and leaves the dialog open, which read as a lost click on a slow machine.
 */
export async function signInDialog(page: Page, action: string, password: string): Promise<void> {
  const dialog = openModal(page);
  await expect.poll(() => dialog.getByLabel('Meaning').inputValue()).not.toBe('');
  await dialog.getByLabel('Password').fill(password);
  await dialog.getByRole('button', { name: `Sign and ${action.toLowerCase()}` }).click();
}

/**
 * Makes another user's change (through the API) while a form is open, and waits until the page
 * has read `read` again: the live update that re-renders the form under what is being typed.
 * A string is the path's end; a RegExp is tested against the whole address.
 */
export async function changeArrivingLive(
  page: Page,
  read: string | RegExp,
  change: () => Promise<unknown>,
): Promise<void> {
  const reread = page.waitForResponse(
    (res) =>
      res.request().method() === 'GET' &&
      (typeof read === 'string' ? res.url().endsWith(read) : read.test(res.url())),
  );
  await change();
  await reread;
}
