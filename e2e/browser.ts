import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { watchBrowserErrors } from './browser-errors.ts';

export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

// Chromium's background connections are refused on these machines' closed network.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ARGS, headless: true });
}

export async function newPage(
  browser: Browser,
  baseURL: string,
  // A desktop screen: the header's navigation shows every entry without its overflow menu.
  viewport = { width: 1920, height: 1080 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport });
  watchBrowserErrors(context);
  // The suite shares two cores with the server tests that run beside it: a step may wait long.
  context.setDefaultTimeout(50_000);
  const page = await context.newPage();
  return { context, page };
}
