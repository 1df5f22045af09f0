import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  canOpenScreen,
  isEntityShown,
  type FacilityKind,
  type ProductType,
  type Tier,
} from '#core/facilities/facility-features.ts';
import { ENTITY_DEFS } from '#core/entities/defs/index.ts';
import { seedDemo } from '#server/cli/seed-demo.ts';
import { NAVIGATION } from '#client/app/navigation.ts';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { MAIN_SCREENS, openScreen } from './main-screens.ts';
import { facilityApi, signInToFacility } from './ui.ts';
import { forbiddenOn } from './words.ts';

/*
 * Issue 30: every screen of the application, on the demo facility, reads as words: no enum
 * code, record id, ISO time, raw JSON, source path or "spec §". The screens are the layout
 * test's main screens, every menu entry and every master-data list.
 */

let app: AppUnderTest;
let page: Page;
let kind: FacilityKind;

beforeAll(async () => {
  app = await startAppUnderTest();
  const facility = await facilityApi(app);
  await seedDemo(app.server.db, facility.id);
  const [row] = await app.server.db.query<{ tier: Tier; product_type: ProductType }>(
    'select tier, product_type from facilities where id = $1',
    [facility.id],
  );
  kind = { tier: row!.tier, productType: row!.product_type };
  page = await app.open('/', { width: 1440, height: 900 });
  await signInToFacility(page);
});
afterAll(async () => {
  await page?.context().close();
  await app?.close();
});

const SCREENS = [
  ...new Set([...MAIN_SCREENS.map((s) => s.path), ...NAVIGATION.map((entry) => entry.path)]),
];

it('every screen shows words, not codes', { timeout: 300_000 }, async () => {
  // Screens the facility's kind lacks (intermediates in a finished-product plant) are refused.
  const masterData = ENTITY_DEFS.filter((def) => isEntityShown(kind, def.path)).map(
    (def) => def.screen ?? `/master-data/${def.path}`,
  );
  const screens = [...new Set([...SCREENS, ...masterData])].filter((path) =>
    canOpenScreen(kind, path),
  );
  expect(screens.length).toBeGreaterThan(40);
  const found: string[] = [];
  for (const path of screens) {
    await openScreen(page, path);
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
