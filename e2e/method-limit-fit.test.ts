import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import {
  facilityApi,
  facilityCreator,
  openDrawer,
  openMasterData,
  openModal,
  openSignedIn,
} from './ui.ts';
import { seedTwoProducts } from './two-products.ts';

let app: AppUnderTest;
let page: Page;

/**
 * A and B on E1 alone (12.5 sqm): B → A's MACO is 250 mg, so E1 rinsed on its own in 1 L has
 * 250 mg / 1000 ml = 0.25 mg/ml. "TOC blind" (LOQ 500 ppm = 0.5 mg/ml) is named by a rinse
 * sample on E1 and cannot detect it. The facility's batch sizes default to g.
 */
beforeAll(async () => {
  app = await startAppUnderTest();
  const { path: F } = await facilityApi(app);
  const create = await facilityCreator(app, F);
  await seedTwoProducts(create, { oneItem: true });
  const [e1] = await app.server.db.query<{ id: number }>(
    `select id from equipment where name = 'E1'`,
  );
  const blind = await create('analytical-method', {
    name: 'TOC blind',
    testType: 'TOC',
    loq: { value: 500, unit: 'ppm' },
  });
  await create('analytical-method', { name: 'TOC spare', testType: 'TOC' });
  // The facility's seeded 1 L rinse: the location's limit is E1's rinse limit.
  const [rinseType] = await app.server.db.query<{ id: number }>(
    `select t.id from sampling_types t join facilities f on f.id = t.facility_id
      where t.name = 'Rinse' and f.id = (select facility_id from equipment where id = $1)`,
    [e1!.id],
  );
  const location = await app.server.request<{ result: { id: number }[] }>(
    'POST',
    `${F}/equipments/${e1!.id}/sampling-locations`,
    {
      token: await app.server.login(),
      body: { data: { name: 'Drain', sampleType: 'rinse', samplingTypeId: rinseType!.id } },
    },
  );
  const token = await app.server.login();
  const sample = await app.server.request(
    'POST',
    `${F}/equipments/${e1!.id}/sampling-locations/${location.body.result[0]!.id}/samples`,
    { token, body: { name: 'R-1', sampleType: 'rinse', analyticalMethodId: blind } },
  );
  expect(sample.status).toBe(200);
  const units = await app.server.request<{ id: number; shortName: string }[]>(
    'GET',
    `${F}/default_units`,
    { token },
  );
  const batch = units.body.find((u) => u.shortName === 'minBatchSize');
  const changed = await app.server.request('POST', `${F}/default_units/${batch!.id}`, {
    token,
    body: { unit: 'g', reason: 'Batches are weighed in grams here' },
  });
  expect(changed.status).toBe(200);
  page = await openSignedIn(app);
});
afterAll(async () => {
  await app?.close();
});

describe('an analytical method against the limits it is used for', () => {
  it('warns that its LOQ is above the tightest rinse limit', async () => {
    await openMasterData(page, 'Analytical methods');
    await page
      .getByRole('row', { name: /TOC blind/ })
      .getByRole('button', { name: 'Edit' })
      .click();
    await openDrawer(page)
      .getByText(
        'This method cannot detect residue at the tightest rinse limit it is used for: LOQ 0.5 mg/ml vs limit 0.25 mg/ml (equipment E1)',
      )
      .waitFor();
  });

  it('lists every limit it cannot reach, with the location, the pair and why', async () => {
    const list = openDrawer(page).getByRole('region', { name: 'Limits this method cannot reach' });
    const row = list.getByRole('row', { name: /Drain/ });
    await expect
      .poll(async () => (await row.getByRole('cell').allTextContents()).slice(0, 4))
      .toEqual(['E1', 'Drain', 'Rinse', '0.25 mg/ml']);
    await row.getByText(/^TOC blind cannot show the limit: its LOQ 0\.5 mg\/ml ÷ /).waitFor();
    await openDrawer(page).getByRole('button', { name: 'Cancel' }).click();
  });

  it('says what it measures, and measured as carbon its LOQ is divided by the carbon fraction', async () => {
    await page
      .getByRole('row', { name: /TOC blind/ })
      .getByRole('button', { name: 'Edit' })
      .click();
    const measures = openDrawer(page).getByRole('region', { name: 'What the method measures' });
    await measures.getByText('None: results are compared with the limit as measured.').waitFor();
    const select = measures.getByLabel('Measures');
    await select.click();
    await page.locator('.ant-select-item-option[title="Total organic carbon"]:visible').click();
    // The reason dialog over the drawer (confirmWithReason counts the drawer as a dialog too).
    const dialog = openModal(page);
    await dialog.getByLabel('Reason').fill('Validated as a TOC method');
    await dialog.getByRole('button', { name: 'Change', exact: true }).click();
    await expect.poll(() => openModal(page).count(), { timeout: 30_000 }).toBe(0);
    await measures
      .getByText(/^A result is mass of carbon: it is divided by the carbon fraction/)
      .waitFor();
    // The seeded actives state no carbon fraction: the carbon cannot be converted to the active.
    const list = openDrawer(page).getByRole('region', { name: 'Limits this method cannot reach' });
    await list
      .getByRole('row', { name: /Drain/ })
      .getByText(/carbon fraction is not stated/)
      .waitFor();
    await openDrawer(page)
      .getByText(
        /^This method cannot show the tightest rinse limit it is used for \(equipment E1\)/,
      )
      .waitFor();
    await openDrawer(page).getByRole('button', { name: 'Cancel' }).click();
  });

  it('says when a method is not used anywhere yet', async () => {
    await page
      .getByRole('row', { name: /TOC spare/ })
      .getByRole('button', { name: 'Edit' })
      .click();
    await openDrawer(page)
      .getByText(/This method is not named by any sample yet/)
      .waitFor();
    await openDrawer(page).getByRole('button', { name: 'Cancel' }).click();
  });
});

describe('what-if units', () => {
  it('start a batch size in the facility’s default unit', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'MAC matrix' })
      .click();
    await page.getByRole('tab', { name: 'Pairs' }).waitFor();
    await page.getByRole('button', { name: 'What if…' }).click();
    const panel = page.locator('.ant-drawer-open');
    await panel.getByText('Nothing here is saved').waitFor();
    const unit = panel
      .getByLabel('Unit', { exact: true })
      .locator(
        "xpath=ancestor::div[contains(concat(' ', normalize-space(@class), ' '), ' ant-select ')][1]",
      );
    await expect.poll(async () => (await unit.textContent())?.trim()).toBe('g');
  });
});
