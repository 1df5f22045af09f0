import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { createViaApi, facilityApi, openSignedIn } from './ui.ts';

let app: AppUnderTest;
let page: Page;

/** Two products on one line, with what the ranking scores (the payloads of limit-reports.test.ts). */
async function seedFacility(F: string): Promise<void> {
  const token = await app.server.login();
  const create = (path: string, body: unknown) => createViaApi(app, token, `${F}/${path}`, body);
  const alpha = await create('apis', {
    name: 'Alpha',
    pde: { value: 0.1, unit: 'mg' },
    therapeuticDose: { value: 10, unit: 'mg' },
    solubility: 'Slightly soluble',
    cleanability: 'Difficult',
  });
  const beta = await create('apis', {
    name: 'Beta',
    pde: { value: 1, unit: 'ug' },
    therapeuticDose: { value: 2, unit: 'mg' },
    solubility: 'Freely soluble',
    cleanability: 'Easy',
  });
  const product = (name: string, mdd: number, mbs: number, activeId: number) =>
    create('products', {
      name,
      maxDailyDose: { value: mdd, unit: 'mg' },
      minBatchSize: { value: mbs, unit: 'kg' },
      actives: [{ activeId, amount: { value: 5, unit: 'mg' } }],
    });
  const a = await product('A', 200, 50, alpha);
  const b = await product('B', 400, 100, beta);
  const e1 = await create('equipments', { name: 'E1', surfaceArea: { value: 12.5, unit: 'sqm' } });
  const e2 = await create('equipments', { name: 'E2', surfaceArea: { value: 5000, unit: 'sqcm' } });
  await create('productions', { name: 'Line 1', equipmentIds: [e1, e2], productIds: [a, b] });
  await create('cleaning_agents', {
    name: 'Alkaline detergent',
    ld50: { value: 2000, unit: 'mg/kg' },
  });
}

beforeAll(async () => {
  app = await startAppUnderTest();
  await seedFacility((await facilityApi(app)).path);
  page = await openSignedIn(app);
});
afterAll(async () => {
  await app?.close();
});

async function openLimits(tab: string): Promise<void> {
  // A drawer another test left open covers the navigation.
  const drawer = page.locator('.ant-drawer-open');
  if (await drawer.isVisible()) {
    await drawer.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'detached' });
  }
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Limits', exact: true })
    .click();
  await page.getByRole('tab', { name: tab }).click();
  await expect
    .poll(() => page.getByRole('tab', { name: tab }).getAttribute('aria-selected'))
    .toBe('true');
}

describe('limits reports', () => {
  it('opens the derivation of a worst-case score', async () => {
    await openLimits('Worst-case ranking');
    // A: slightly soluble (3) × dose 10 mg (3) × PDE 100 ug/day (2) × difficult (3) = 54 points.
    const score = page.getByRole('button', { name: 'Risk score of A: 54 points' });
    await score.waitFor();
    // Above the table, the bar chart the ranking report prints (core/charts), named by its bars.
    await page
      .getByRole('img', { name: /^Score of the \d+ highest-ranked products: (.*, )?A 54(,|$)/ })
      .waitFor();
    await score.click();
    const drawer = page.locator('.ant-drawer-open');
    await drawer.getByText('Risk score of A', { exact: true }).waitFor();
    await drawer
      .getByText('APIC worst-case rating: solubility * dose * toxicity * cleanability')
      .waitFor();
    await drawer.getByText('solubility: Slightly soluble (active Alpha)').waitFor();
    await drawer.getByText('54 points', { exact: true }).first().waitFor();
    await drawer.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'detached' });
  });

  it('opens the derivation of an equipment limit', async () => {
    await openLimits('Equipment limits');
    // B → A governs E1: 250 mg over 130,000 sqcm.
    const sal = page.getByRole('button', { name: /^Lowest SAL of E1: 0\.001923 mg\/cm²$/ });
    await sal.waitFor();
    await sal.click();
    const drawer = page.locator('.ant-drawer-open');
    await drawer.getByText('SAL: B → A', { exact: true }).waitFor();
    await drawer.getByText('SAL = MACO / A', { exact: true }).waitFor();
    await drawer.getByText('Shared equipment: E1, E2').waitFor();
    await drawer.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'detached' });
  });

  it('opens the derivations of a production limit and a cleaning-agent limit', async () => {
    await openLimits('Production limits');
    // B → A: health 0.001 mg × 50 kg / 200 mg = 250 mg, the lowest of Line 1.
    const maco = page.getByRole('button', { name: 'Lowest MACO of Line 1: 250 mg' });
    await maco.waitFor();
    await maco.click();
    const drawer = page.locator('.ant-drawer-open');
    await drawer.getByText('MACO (governing): B → A', { exact: true }).waitFor();
    await drawer.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'detached' });

    // Each pair of the production, explained on the production's own data.
    await page.getByRole('button', { name: 'Expand row' }).first().click();
    const pair = page.getByRole('button', { name: 'MACO of A → B in Line 1: 1,000 mg' });
    await pair.waitFor();
    await pair.click();
    await drawer.getByText('MACO (governing): A → B', { exact: true }).waitFor();
    await drawer.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'detached' });

    await openLimits('Cleaning-agent limits');
    // The general limit governs in A: 10 ppm × 50 kg = 500 mg.
    const agent = page.getByRole('button', { name: 'MACO of Alkaline detergent in A: 500 mg' });
    await agent.waitFor();
    await agent.click();
    await drawer.getByText('Alkaline detergent in A', { exact: true }).waitFor();
    await drawer.getByText('Formula', { exact: true }).first().waitFor();
  });

  it('shows every number as people read it: no e-notation, no long decimals, no sqcm', async () => {
    // Issue 30: '6.114e-5 mg', '0.0003057018765353721 mg/swab' and 'mg/sqcm' were on these pages.
    const readable = async (where: string) => {
      const text = await page.locator('body').innerText();
      expect(text, where).not.toMatch(/(?<![\w.])\d+(?:\.\d+)?e[-+]?\d+(?!\w)/i);
      expect(text, where).not.toMatch(/\d\.\d{10,}/);
      expect(text, where).not.toMatch(/\bsqcm\b/);
    };
    for (const tab of ['Worst-case ranking', 'Equipment limits', 'Cleaning-agent limits']) {
      await openLimits(tab);
      await page.getByRole('tabpanel').getByRole('table').first().waitFor();
      await readable(tab);
    }
    await openLimits('Production limits');
    await page.getByRole('button', { name: 'Lowest MACO of Line 1: 250 mg' }).waitFor();
    await page.getByRole('button', { name: 'Expand row' }).first().click();
    await page.getByRole('button', { name: 'MACO of A → B in Line 1: 1,000 mg' }).waitFor();
    await readable('Production limits');

    // The MAC matrix: the pairs, a pair's drawer with its SAL = MACO / area line, and the grid.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'MAC matrix' })
      .click();
    await page.getByRole('tab', { name: 'Pairs', selected: true }).waitFor();
    const sal = page.locator('button.matrix-link', { hasText: 'mg/cm²' }).first();
    await sal.waitFor();
    await readable('MAC matrix pairs');
    await sal.click();
    const drawer = page.locator('.ant-drawer-open');
    await drawer.getByText('SAL = MACO / area').waitFor();
    await drawer.getByText('130,000 cm²').first().waitFor();
    await readable('MAC matrix pair');
    await drawer.getByRole('button', { name: 'Close' }).click();
    await drawer.waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'Grid' }).click();
    await page.getByLabel('Legend').getByText('No limit').waitFor();
    await readable('MAC matrix grid');
  });

  it('shows limits at the significant digits set on the Settings screen', async () => {
    // Through the Settings screen both ways: a second sign-in would end the browser's session.
    const setDigits = async (digits: string, reason: string) => {
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Settings' })
        .click();
      await page.getByRole('tab', { name: 'Date and time' }).click();
      await page.getByLabel('Significant digits').fill(digits);
      await page.getByLabel('Reason for change').fill(reason);
      await page.getByRole('button', { name: 'Save date and time settings' }).click();
      await page.getByText('Date and time settings saved.').first().waitFor();
    };
    await setDigits('6', 'Limits checked to six digits');
    await openLimits('Equipment limits');
    // 250 mg over 130,000 cm² at six significant digits.
    await page.getByRole('button', { name: 'Lowest SAL of E1: 0.00192308 mg/cm²' }).waitFor();
    // The other tests read four digits.
    await setDigits('4', 'Back to four digits');
    await openLimits('Equipment limits');
    await page.getByRole('button', { name: 'Lowest SAL of E1: 0.001923 mg/cm²' }).waitFor();
  });

  it('warns, on each report, of a product left out with the reason', async () => {
    // Stored before the rule that now refuses it: batch size in kg, daily dose in units (once:
    // a retry finds it there).
    const { id } = await facilityApi(app);
    await app.server.db.query(
      `insert into products (facility_id, name, min_batch_size, max_daily_dose, actives)
       values ($1, 'Mixed kinds', '{"value":100,"unit":"kg"}', '{"value":2,"unit":"units"}', '[]')
       on conflict do nothing`,
      [id],
    );
    await page.reload();
    for (const tab of ['Worst-case ranking', 'Equipment limits', 'Cleaning-agent limits']) {
      await openLimits(tab);
      const list = page.getByRole('tabpanel').getByRole('list', { name: 'Left out of the limits' });
      await list.getByText(/^Product Mixed kinds: .*maximum daily dose/).waitFor();
    }
    // The rest is still computed.
    await page.getByRole('button', { name: 'MACO of Alkaline detergent in A: 500 mg' }).waitFor();
  });
});
