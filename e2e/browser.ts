import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { watchBrowserErrors } from './browser-errors.ts';
import { recordCalls } from './failure-record.ts';

/*
 * Debian's headless shell (package chromium-headless-shell) is Chromium without the browser's own
 * interface, which the full browser renders even headless: the same four test files took a tenth
 * less time with it on two cores. The full browser serves where it is the one installed.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

export function chromiumPath(): string {
  return (
    process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium')
  );
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

let shared: Promise<Browser> | undefined;

/**
 * One Chromium for every file this test worker runs: a launch costs about a second of CPU, and
 * each file's pages live in contexts of their own (cookies and storage apart), closed with its
 * app. A browser that went away is launched again.
 */
export async function sharedBrowser(): Promise<Browser> {
  const running = await shared?.catch(() => undefined);
  if (running?.isConnected()) return running;
  shared = launchBrowser();
  return shared;
}

/**
 * Contexts opened inside the running test, closed when it ends (e2e/setup.ts). A page left open
 * keeps polling with a session the next test's sign-in supersedes, and its 419 would be blamed
 * on that test. Pages a file opens in beforeAll are shared by its tests and stay open.
 */
const openedInTest = new Set<BrowserContext>();
let isInTest = false;
let attempt = 0;

export function startTestContexts(retryCount: number): void {
  isInTest = true;
  attempt = retryCount;
}

/**
 * A unique name for a record the test creates: a retry runs on the same database, where the
 * first attempt's record may already stand, so it names its own.
 */
export function named(name: string): string {
  return attempt === 0 ? name : `${name} R${attempt}`;
}

/** Every open context: a failed test's shared page (opened in beforeAll) is shown too. */
const openContexts = new Set<BrowserContext>();

/** The open pages, to show what they held when a test failed. */
export function testPages(): Page[] {
  return [...openContexts].flatMap((context) => context.pages());
}

export async function closeTestContexts(): Promise<void> {
  isInTest = false;
  const contexts = [...openedInTest];
  openedInTest.clear();
  await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
}

export async function newPage(
  browser: Browser,
  baseURL: string,
  // A desktop screen: the header's navigation shows every entry without its overflow menu.
  viewport = { width: 1920, height: 1080 },
): Promise<{ context: BrowserContext; page: Page }> {
  // As a user who asks for less motion: a step acts on a drawer or dropdown at once, instead of
  // on one still sliding in (clicks during the animation missed on a loaded machine).
  const context = await browser.newContext({ baseURL, viewport, reducedMotion: 'reduce' });
  if (isInTest) openedInTest.add(context);
  openContexts.add(context);
  context.on('close', () => openContexts.delete(context));
  watchBrowserErrors(context);
  recordCalls(context);
  // The suite shares two cores with the server tests that run beside it: a step may wait long.
  context.setDefaultTimeout(50_000);
  const page = await context.newPage();
  return { context, page };
}
