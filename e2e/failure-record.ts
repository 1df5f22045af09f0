import { mkdir, writeFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';

/**
 * What a failed browser test leaves to look at (.test-output/failures): each of its pages as a
 * screenshot, its open dialogs, and the API calls it made with their answers and timings. A step
 * that fails once on a loaded machine is otherwise hard to tell from a fault of the app.
 */
export const FAILURES = '.test-output/failures';
const KEEP = 60;
const calls = new WeakMap<BrowserContext, string[]>();
const started = performance.now();

function stamp(): string {
  return `${((performance.now() - started) / 1000).toFixed(2)}s`;
}

export function recordCalls(context: BrowserContext): void {
  const log: string[] = [];
  calls.set(context, log);
  const add = (line: string) => {
    log.push(`${stamp()} ${line}`);
    if (log.length > KEEP) log.shift();
  };
  context.on('request', (request) => {
    if (request.url().includes('/api/')) add(`-> ${request.method()} ${request.url()}`);
  });
  context.on('requestfinished', (request) => {
    if (!request.url().includes('/api/')) return;
    // The context may close before the answer is read (a test ending): nothing to record then.
    request.response().then(
      (response) => add(`<- ${response?.status() ?? '?'} ${request.method()} ${request.url()}`),
      () => undefined,
    );
  });
  context.on('requestfailed', (request) => {
    add(`xx ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ''}`);
  });
}

async function describePage(page: Page): Promise<string> {
  const dialogs = await page
    .locator('[role="dialog"]')
    .evaluateAll((nodes) =>
      nodes.map((node) => `${node.className}: ${(node.textContent ?? '').slice(0, 400)}`),
    )
    .catch((error: unknown) => [`(dialogs unreadable: ${String(error)})`]);
  // The warnings shown and the start of the page's text come before the calls: CI prints only
  // the head of each record, and they tell most often why a step waited in vain.
  const messages = await page
    .locator('.ant-message-notice, .ant-notification-notice, .ant-alert')
    .allInnerTexts()
    .catch(() => []);
  const text = await page
    .locator('body')
    .innerText({ timeout: 2_000 })
    .catch(() => '');
  const log = calls.get(page.context()) ?? [];
  return [
    `url: ${page.url()}`,
    `messages:`,
    ...messages.map((m) => `  ${m.replace(/\s+/g, ' ').slice(0, 300)}`),
    `page text: ${text.replace(/\s+/g, ' ').slice(0, 500)}`,
    `dialogs:`,
    ...dialogs.map((d) => `  ${d}`),
    `api calls:`,
    ...log.map((l) => `  ${l}`),
  ].join('\n');
}

export async function saveFailure(name: string, errors: string[], pages: Page[]): Promise<void> {
  await mkdir(FAILURES, { recursive: true });
  const base = `${FAILURES}/${name.replace(/[^\w.-]+/g, '_').slice(0, 120)}-${Date.now()}`;
  await Promise.all(
    pages.map(async (page, index) => {
      if (page.isClosed()) return;
      await page
        .screenshot({ path: `${base}-${index}.png`, timeout: 10_000 })
        .catch(() => undefined);
      await writeFile(
        `${base}-${index}.txt`,
        `${errors.join('\n')}\n\n${await describePage(page)}`,
      );
    }),
  );
}
