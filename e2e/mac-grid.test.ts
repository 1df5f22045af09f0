import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { facilityWorkbook, uploadWorkbook } from '#bench/bench-fixture.ts';
import { SHADES } from '#client/features/limits/mac-grid.ts';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { choose, facilityApi, openSignedIn } from './ui.ts';

let app: AppUnderTest;
let page: Page;

/** '#08306b' as the browser computes it: 'rgb(8, 48, 107)'. */
const rgb = (hex: string) =>
  `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

beforeAll(async () => {
  app = await startAppUnderTest();
  const facility = await facilityApi(app);
  // 80 products on 8 lines of 10 (Product i on Line i % 8), the lines sharing items: a grid
  // wider and taller than the screen. Imported before the browser signs in (a sign-in ends
  // the administrator's other session).
  const workbook = await facilityWorkbook({
    actives: 80,
    products: 80,
    equipment: 40,
    productions: 8,
    seed: 3,
  });
  await uploadWorkbook(`${app.server.url}${facility.path}`, await app.server.login(), workbook);
  page = await openSignedIn(app);
});
afterAll(async () => {
  await app?.close();
});

describe('the MAC matrix grid in the browser', () => {
  it('shades the pairs, scrolls both ways, and opens a pair’s derivation', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'MAC matrix' })
      .click();
    await page.getByRole('tab', { name: 'Pairs', selected: true }).waitFor();
    await page.getByRole('tab', { name: 'Grid' }).click();
    const grid = page.getByRole('region', { name: 'MAC matrix grid' });
    // From the top-left corner (a retry finds the grid where the last attempt left it).
    await grid.evaluate((element) => element.scrollTo(0, 0));
    // Product 0 and Product 8 are made on Line 0.
    const cell = grid.getByRole('button', { name: /^Product 0 → Product 8: MACO [\d.,]+ mg/ });
    await cell.waitFor();
    expect(SHADES.map(rgb)).toContain(
      await cell.evaluate((element) => getComputedStyle(element).backgroundColor),
    );
    await page.getByLabel('Legend').getByText('No limit').waitFor();
    // Red corners only where action is needed (no limit); advice is grey, and the legend says so.
    await page.getByLabel('Legend').getByText('Needs action (red corner)').waitFor();
    await page
      .getByLabel('Legend')
      .getByText(/^Advisory: /)
      .waitFor();
    expect(await grid.locator('.mac-grid-cell.is-flagged:not(.is-none)').count()).toBe(0);
    const counts = await page.getByText(/^\d+ products, [\d,]+ pairs/).textContent();
    const pairs = Number(/([\d,]+) pairs/.exec(counts ?? '')?.[1]?.replace(/,/g, ''));
    expect(counts).toMatch(/^80 products/);
    // Only the cells in view are drawn.
    const drawn = await grid.locator('.mac-grid-cell').count();
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(pairs);

    // To the far corner: the last row and the last column come into view, headers stay.
    await grid.evaluate((element) => element.scrollTo(element.scrollWidth, element.scrollHeight));
    const lastRow = grid.locator('.mac-grid-row-head').last();
    // The grid draws the new window after the scroll: its last row is read once it holds still.
    let lastName = '';
    await expect
      .poll(async () => {
        const now = (await lastRow.textContent()) ?? '';
        const still = now !== '' && now === lastName;
        lastName = now;
        return still && (await lastRow.isVisible());
      })
      .toBe(true);
    expect(await grid.locator('.mac-grid-corner').isVisible()).toBe(true);
    const far = grid.getByRole('button', { name: new RegExp(`^${lastName} → `) }).last();
    await far.waitFor();
    const title = (await far.getAttribute('title')) ?? '';
    const next = /→ (.+?): /.exec(title)?.[1] ?? '';
    await far.click();

    const drawer = page.locator('.ant-drawer-open');
    await drawer.getByText(`${lastName} → ${next}`, { exact: true }).waitFor();
    await drawer.getByText('Criteria (lowest over the previous product’s actives)').waitFor();
    // The derivation from the inputs, as the pairs list opens it.
    await drawer.getByText('From the inputs').waitFor();
    await drawer.getByText('Formula', { exact: true }).first().waitFor();
    // Goal-seek: a swab limit any method can reach is reached already, with how far it could go.
    const seek = drawer.getByRole('region', { name: 'What would make this pass' });
    await seek.getByLabel('Must reach at least').fill('0.000001');
    await seek.getByRole('button', { name: 'Solve' }).click();
    const batch = seek.getByRole('row', { name: new RegExp(`Smallest batch size of ${next}`) });
    await expect.poll(() => batch.textContent()).toMatch(/already reached \(up to [\d.,]+ kg\)/);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    // Shaded by SAL instead.
    await page.getByLabel('Shade by').getByText('SAL', { exact: true }).click();
    await grid
      .getByRole('button', { name: new RegExp(`^${lastName} → .*: SAL `) })
      .first()
      .waitFor();
  });

  it('shows one production’s products when the page is narrowed to it', async () => {
    await page.getByRole('tab', { name: 'Grid' }).click();
    await choose(page.getByLabel('Production', { exact: true }), 'Line 0');
    await page.getByText(/^10 products, 90 pairs/).waitFor();
    // Shaded by SAL here too: a retry of this test alone must not depend on the first one.
    await page.getByLabel('Shade by').getByText('SAL', { exact: true }).click();
    const grid = page.getByRole('region', { name: 'MAC matrix grid' });
    await grid.evaluate((element) => element.scrollTo(0, 0));
    await grid.getByRole('button', { name: /^Product 0 → Product 8: SAL / }).waitFor();
    expect(await grid.getByRole('button', { name: /^Product 0 → Product 1: / }).count()).toBe(0);
  });
});
