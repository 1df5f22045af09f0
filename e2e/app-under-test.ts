import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '#server/test/test-server.ts';
import { launchBrowser, newPage } from './browser.ts';

export interface AppUnderTest {
  server: TestServer;
  browser: Browser;
  open(path?: string, viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

/** The built app served by a real server on a fresh database, and a headless Chromium. */
export async function startAppUnderTest(env: Record<string, string> = {}): Promise<AppUnderTest> {
  const server = await startTestServer({ SERVE_CLIENT: 'true', ...env });
  const browser = await launchBrowser();
  return {
    server,
    browser,
    async open(path = '/', viewport) {
      const { page } = await newPage(browser, server.url, viewport);
      await page.goto(path);
      return page;
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Email/Employee ID').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}
