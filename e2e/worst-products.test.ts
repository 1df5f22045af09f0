import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildMacFacility } from '#server/test/mac-test-data.ts';
import { ADMIN } from '#server/test/test-server.ts';
import type { AppUnderTest } from './app-under-test.ts';
import { choose, facilityApi, openModal, startSignedIn } from './ui.ts';

/*
 * Issue 32 on screen: the worst-case product of each train and item with why, and an override
 * signed in the reason and signature dialog; the ranking then shows the chosen worst case.
 * On the MAC facility, B (lowest MACO 250 mg) is Line 1's computed worst case and A (1,000 mg)
 * is less strict, so A is taken only keeping B's limit.
 */

let app: AppUnderTest;
let page: Page;

beforeAll(async () => {
  ({ app, page } = await startSignedIn());
  const { id } = await facilityApi(app);
  // An override follows the equipment train the production runs on.
  await buildMacFacility(app.server, id, { onTrains: true });
});
afterAll(async () => {
  await app?.close();
});

it('overrides the worst case of a train with a signed justification, shown in the ranking', async () => {
  await page.goto(new URL('/limits/reports?tab=worst-products', page.url()).toString());
  const trains = page.getByRole('region', { name: 'Worst-case product per train' });
  const line1 = trains.getByRole('row', { name: /Line 1/ });
  await line1.getByText('Lowest MACO: 250 mg (next worst A: 1,000 mg)').waitFor();
  await line1.getByRole('button', { name: 'Override' }).click();
  const dialog = openModal(page);
  await dialog.getByText('Approve worst-case override').waitFor();
  await choose(dialog.getByLabel('Worst-case product'), 'A, lowest MACO 1,000 mg');
  await dialog.getByLabel(/Keep the computed worst case’s limit/).check();
  await dialog.getByLabel('Justification').fill('A is the hardest to clean on Line 1');
  await dialog.getByLabel('Password').fill(ADMIN.password);
  await dialog.getByLabel('Reason').fill('Coupon cleanability study');
  await dialog.getByRole('button', { name: 'Sign and save' }).click();
  await expect.poll(() => page.getByRole('dialog').count(), { timeout: 30_000 }).toBe(0);
  await line1.getByText(/A is the hardest to clean on Line 1/).waitFor();
  await line1.getByText(/Judged against 250 mg \(B\)/).waitFor();

  await page.getByRole('tab', { name: 'Worst-case ranking' }).click();
  await page.getByText('chosen worst case on Train 1 (override)').waitFor();
  await page
    .getByText(/Override on Train 1: A chosen as the worst case instead of the computed B/)
    .waitFor();
});
