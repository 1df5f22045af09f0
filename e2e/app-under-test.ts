import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { ADMIN } from '#server/test/test-server.ts';
import { startTestServer, type TestServer } from '#server/test/test-server.ts';
import { newPage, sharedBrowser } from './browser.ts';

export interface AppUnderTest {
  server: TestServer;
  browser: Browser;
  open(path?: string, viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

/** Apps of this worker not closed yet: the last one to close closes every page of the browser. */
let running = 0;

/** The built app served by a real server on a fresh database, and the worker's headless Chromium. */
export async function startAppUnderTest(env: Record<string, string> = {}): Promise<AppUnderTest> {
  const server = await startTestServer({ SERVE_CLIENT: 'true', ...env });
  const browser = await sharedBrowser();
  running += 1;
  return {
    server,
    browser,
    async open(path = '/', viewport) {
      const { page } = await newPage(browser, server.url, viewport);
      await page.goto(path);
      return page;
    },
    async close() {
      running -= 1;
      // The next file starts with no page of this one open, polling a server that is gone.
      if (running === 0)
        await Promise.all(browser.contexts().map((c) => c.close().catch(() => {})));
      await server.close();
    },
  };
}

export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Email/Employee ID').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

/**
 * The seeded administrator, signed in to the first facility, on an administration page: the
 * menu follows the facility's permissions, which arrive after the shell renders.
 */
export async function openAsAdmin(app: AppUnderTest, path: string, heading: string): Promise<Page> {
  const page = await app.open('/');
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.getByRole('button', { name: 'Oral Solid Dosage Plant' }).click();
  await page.getByRole('button', { name: 'Logout' }).waitFor();
  const entry = page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Users', exact: true });
  await expect.poll(() => entry.count(), { timeout: 15_000 }).toBeGreaterThan(0);
  await page.goto(path);
  await page.getByRole('heading', { name: heading }).waitFor();
  return page;
}
