import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppUnderTest } from './app-under-test.ts';
import {
  browserToken,
  choose,
  discardDrawer,
  facilityApi,
  openDrawer,
  openMasterData,
  startSignedIn,
} from './ui.ts';
import { allowRefusedRequest } from './browser-errors.ts';

let app: AppUnderTest;
let page: Page;
beforeAll(async () => {
  ({ app, page } = await startSignedIn());
});
afterAll(async () => {
  await app?.close();
});

const reasonDialog = (title: string | RegExp) =>
  page.getByRole('dialog').filter({ hasText: title });

async function fill(label: string, value: string): Promise<void> {
  await openDrawer(page).getByLabel(label, { exact: true }).fill(value);
}

async function giveReason(title: string | RegExp, reason: string, button: string) {
  const dialog = reasonDialog(title);
  await dialog.getByLabel('Reason').fill(reason);
  await dialog.getByRole('button', { name: button }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe('sampling policy screen', () => {
  it('adds, edits with a reason, archives and restores a policy, and adds an attribute', async () => {
    await openMasterData(page, 'Sampling Policy');
    await page.getByText('No sampling policies yet').waitFor();

    await page.getByRole('button', { name: 'Add sampling policy' }).first().click();
    await fill('Name', 'Swab the risky spots');
    await choose(openDrawer(page).getByLabel('Sample type', { exact: true }), 'Swab');
    await fill('Default swab area', '25');
    await fill('Minimum risk score', '100');
    await openDrawer(page).getByRole('button', { name: 'Add sampling policy' }).click();
    const row = page.getByRole('row', { name: /Swab the risky spots/ });
    await row.getByRole('cell', { name: '25 cm²' }).waitFor();

    // The server's check of the whole policy comes back onto its field: its 422 is the point.
    allowRefusedRequest(422, /\/facilities\/\d+\/sampling-policy/);
    await page.getByRole('button', { name: 'Add sampling policy' }).first().click();
    await fill('Name', 'Rinse without a rule');
    await choose(openDrawer(page).getByLabel('Sample type', { exact: true }), 'Rinse');
    await fill('Default rinse volume', '1');
    await openDrawer(page).getByRole('button', { name: 'Add sampling policy' }).click();
    await openDrawer(page)
      .getByText('Give the number of locations per equipment or a minimum risk score')
      .waitFor();
    // The typed entries are unsaved: Cancel asks before discarding them.
    await discardDrawer(page);

    await row.getByRole('button', { name: 'Edit' }).click();
    await fill('Minimum risk score', '50');
    await openDrawer(page).getByRole('button', { name: 'Save' }).click();
    await giveReason('Why are you changing', 'Lower threshold after FMEA', 'Save');
    await row.getByRole('cell', { name: '50', exact: true }).waitFor();

    await row.getByRole('button', { name: 'Archive' }).click();
    await giveReason(/Archive sampling policy/, 'Superseded by SOP-12', 'Archive');
    await page.getByText('No sampling policies yet').waitFor();
    await page.getByRole('switch', { name: 'Show archived' }).click();
    const archived = page.getByRole('row', { name: /Swab the risky spots/ });
    await archived.getByRole('cell', { name: 'Superseded by SOP-12' }).waitFor();
    await archived.getByRole('button', { name: 'Restore' }).click();
    await giveReason(/Restore sampling policy/, 'Still in force', 'Restore');
    await page.getByText('No archived sampling policies').waitFor();
    await page.getByRole('switch', { name: 'Show archived' }).click();
    await row.getByRole('cell', { name: '50', exact: true }).waitFor();

    await page.getByRole('tab', { name: 'Assessment attributes' }).click();
    await page.getByRole('button', { name: 'Add sampling assessment attribute' }).first().click();
    await fill('Name', 'Accessibility');
    await fill('Weight', '3');
    await openDrawer(page).getByRole('button', { name: 'Add options' }).click();
    await fill('Option 1', 'Open');
    await fill('Score 1', '1');
    await openDrawer(page).getByRole('button', { name: 'Add options' }).click();
    await fill('Option 2', 'Dismantle only');
    await fill('Score 2', '5');
    await openDrawer(page)
      .getByRole('button', { name: 'Add sampling assessment attribute' })
      .click();
    await page
      .getByRole('row', { name: /Accessibility/ })
      .getByRole('cell', { name: 'Open 1; Dismantle only 5' })
      .waitFor();
  });

  it('assesses a sampling location on the facility’s attributes', async () => {
    // The test's own data, through the browser's session (one session per user).
    const token = await browserToken(page);
    const F = (await facilityApi(app)).path;
    type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data
    const api = (method: string, path: string, body?: unknown) =>
      app.server.request<Body>(method, `${F}${path}`, { token, ...(body ? { body } : {}) });
    const existing = await api('GET', '/sampling-policy/attributes?pageLimit=1000');
    for (const attribute of existing.body.data as Body[])
      await api('DELETE', `/sampling-policy/attributes/${attribute.id}`, { reason: 'e2e reset' });
    await api('POST', '/sampling-policy/attributes', {
      name: 'Geometry',
      weight: 2,
      options: [
        { label: 'Flat', score: 1 },
        { label: 'Crevice', score: 5 },
      ],
    });
    const equipment = await api('POST', '/equipments', {
      name: 'Dryer D2',
      surfaceArea: { value: 6, unit: 'sqm' },
    });
    const id = equipment.body.result.id;
    await api('POST', `/equipments/${id}/sampling-locations`, {
      data: { name: 'Filter bag seam', sampleType: 'swab' },
    });

    await page.goto(`/master-data/equipments/${id}`);
    await page.getByRole('heading', { name: 'Dryer D2' }).waitFor();
    await page.getByRole('button', { name: 'Assess risk' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: 'Risk assessment of' });
    await choose(dialog.getByLabel('Geometry (weight 2)'), 'Crevice (5)');
    // 2 × 5 = 10 of at most 10: High.
    await dialog.getByText('High (10)').waitFor();
    await giveReason('Risk assessment of', 'Seam traps powder', 'Save assessment');
    await page.getByRole('cell', { name: 'High (10)' }).waitFor();
    const locations = await api('GET', `/equipments/${id}/sampling-locations`);
    expect(locations.body.data[0]).toMatchObject({
      riskScore: 10,
      assessment: { method: 'attributes', ratings: [{ attribute: 'Geometry', option: 'Crevice' }] },
    });
  });
});
