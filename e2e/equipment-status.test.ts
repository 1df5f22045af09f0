import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppUnderTest } from './app-under-test.ts';
import { allowRefusedRequest } from './browser-errors.ts';
import {
  browserToken,
  choose,
  createViaApi,
  discardQuestion,
  facilityApi,
  openModal,
  startSignedIn,
} from './ui.ts';

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
  const active = await createViaApi(app, token, `${F}/apis`, { name: 'Metformin' });
  await createViaApi(app, token, `${F}/products`, {
    name: 'Metformin 500 mg tablets',
    maxDailyDose: { value: 2, unit: 'g' },
    minBatchSize: { value: 100, unit: 'kg' },
    actives: [{ activeId: active, amount: { value: 500, unit: 'mg' } }],
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
    await page.getByRole('cell', { name: 'Cleaning started' }).waitFor();
    await page.keyboard.press('Escape');
    await page.locator('.ant-drawer-open').waitFor({ state: 'detached' });
  });

  it('refuses to start a batch on equipment not released, and records a cleaning', async () => {
    // The refused start is the production hold at work: the screen shows its reasons.
    allowRefusedRequest(409, /\/equipment\/\d+\/logbook/);
    await page.getByText(/^All \(/).click();
    const press = page.getByLabel('Equipment Tablet press 5');
    await press.getByRole('button', { name: 'Record' }).click();
    let dialog = openModal(page);
    await choose(dialog.getByLabel('Event'), 'Use started');
    await choose(dialog.getByLabel('Product'), 'Metformin 500 mg tablets');
    await dialog.getByLabel('Batch').fill('MF-0042');
    await dialog.getByRole('button', { name: 'Record' }).click();
    const notice = page.locator('.ant-notification-notice');
    await notice.getByText('Equipment not released').waitFor();
    await notice
      .getByText('The equipment is not released: No cleaning recorded in the logbook')
      .waitFor();
    // What was typed is not thrown away unasked.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await (await discardQuestion(page)).getByRole('button', { name: 'Discard' }).click();
    await expect.poll(() => press.getByText('Dirty', { exact: true }).count()).toBe(1);

    await press.getByRole('button', { name: 'Record' }).click();
    dialog = openModal(page);
    await choose(dialog.getByLabel('Event'), 'Cleaning started');
    await dialog.getByRole('button', { name: 'Record' }).click();
    await press.getByText('Cleaning in progress').waitFor();
  });
});
