import type { Browser, Page } from 'playwright-core';
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
