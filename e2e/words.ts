import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { forbiddenTextReport } from '#core/labels/forbidden-text.ts';

/**
 * Fails when the screen shows a code, key, id, path, ISO time, raw JSON or specification
 * reference instead of words (issue 30). The same check as the server's report tests
 * (core/labels/forbidden-text.ts); only what is visible counts, as a reader sees it.
 */
export async function expectWords(page: Page, where: string): Promise<void> {
  expect(await forbiddenOn(page, where)).toBe('');
}

/** What the screen shows that is not words, one finding a line ('' when none). */
export async function forbiddenOn(page: Page, where: string): Promise<string> {
  return forbiddenTextReport(where, await page.locator('body').innerText());
}
