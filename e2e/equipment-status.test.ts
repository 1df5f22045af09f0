import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { AppUnderTest } from './app-under-test.ts';
import { browserToken, createViaApi, facilityApi, startSignedIn } from './ui.ts';

/*
 * Issue 31: the status board shows each item's state from its logbook, filters by state, and
 * opens an item's log. The entries are recorded by the API (the board only reads).
 */

let app: AppUnderTest;
let page: Page;

beforeAll(async () => {
  ({ app, page } = await startSignedIn());
  const token = await browserToken(page);
  const F = (await facilityApi(app)).path;
  const dryer = await createViaApi(app, token, `${F}/equipments`, {
    name: 'Fluid bed dryer 2',
    surfaceArea: { value: 3, unit: 'sqm' },
  });
  await createViaApi(app, token, `${F}/equipments`, {
    name: 'Tablet press 5',
    surfaceArea: { value: 1, unit: 'sqm' },
  });
  const res = await app.server.request('POST', `${F}/equipment/${dryer}/logbook`, {
    token,
    body: { event: 'CleaningStarted' },
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
});
afterAll(async () => {
  await app?.close();
});

describe('the equipment status board', () => {
  it('shows the states, filters by state and opens the log', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Equipment status' })
      .click();
    await page.getByRole('heading', { name: 'Equipment status' }).waitFor();
    const dryer = page.getByLabel('Equipment Fluid bed dryer 2');
    await dryer.getByText('Cleaning in progress').waitFor();
    await page
      .getByLabel('Equipment Tablet press 5')
      .getByText('No cleaning recorded in the logbook')
      .waitFor();

    await page.getByText('Cleaning (1)').click();
    await dryer.waitFor();
    await page.getByLabel('Equipment Tablet press 5').waitFor({ state: 'detached' });

    await dryer.getByRole('button', { name: 'Logbook' }).click();
    await page.getByText('Equipment log: Fluid bed dryer 2').waitFor();
    await page.getByRole('cell', { name: 'CleaningStarted' }).waitFor();
  });
});
