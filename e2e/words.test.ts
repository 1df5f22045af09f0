import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemoStory } from '#server/cli/seed-demo.ts';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { demoRecordPages, facilityScreens, openScreen } from './main-screens.ts';
import { facilityApi, openSignedIn } from './ui.ts';
import { forbiddenOn } from './words.ts';

/*
 * Issue 30: every screen of the application, on the demo facility with its whole story (runs,
 * studies, a failure and its investigation, an approved change, an assessment, reports), reads
 * as words: no enum code, record id, ISO time, raw JSON, source path, "spec §", e-notation or
 * unrounded number. The screens are the layout test's main screens, every menu entry, every
 * master-data list and the story's record pages.
 */

let app: AppUnderTest;
let page: Page;
let facilityId: number;

beforeAll(async () => {
  app = await startAppUnderTest();
  facilityId = (await facilityApi(app)).id;
  await seedDemoStory(app.server, facilityId);
  page = await openSignedIn(app, '/', { viewport: { width: 1440, height: 900 } });
}, 600_000);
afterAll(async () => {
  await page?.context().close();
  await app?.close();
});

it('every screen shows words, not codes', { timeout: 600_000 }, async () => {
  const screens = await facilityScreens(app.server.db, facilityId);
  expect(screens.length).toBeGreaterThan(40);
  screens.push(...(await demoRecordPages(app.server.db, facilityId)));
  const found: string[] = [];
  for (const path of screens) {
    await openScreen(page, path, 'fresh');
    found.push(await forbiddenOn(page, path));
    // A screen's tabs (Settings: single sign-on, display, …) are screens of their own.
    const tabs = page.locator('.app-content [role="tab"]');
    for (let i = 1; i < (await tabs.count()); i++) {
      const tab = tabs.nth(i);
      const name = (await tab.innerText()).trim();
      await tab.click();
      await page.waitForLoadState('networkidle');
      found.push(await forbiddenOn(page, `${path} › ${name}`));
    }
  }
  // All screens' findings at once: one run lists everything left to reword.
  expect(found.filter(Boolean).join('\n')).toBe('');
});
