import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppUnderTest } from './app-under-test.ts';
import { choose, openDrawer, openMasterData, openModal, startSignedIn } from './ui.ts';

let app: AppUnderTest;
let page: Page;
beforeAll(async () => {
  ({ app, page } = await startSignedIn());
});
afterAll(async () => {
  await app?.close();
});

describe('additional properties', () => {
  it('defines a number property for products, fills it on a product and keeps it', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Settings' })
      .click();
    await page.getByRole('tab', { name: 'Additional Properties' }).click();
    await page.getByRole('tab', { name: 'Products', exact: true }).click();
    await page.getByText('No additional properties defined yet.').first().waitFor();
    await page.getByRole('button', { name: 'Add property' }).click();
    await openModal(page).getByLabel('Label', { exact: true }).fill('Tablet hardness');
    await choose(openModal(page).getByLabel('Kind', { exact: true }), 'Number');
    await openModal(page)
      .getByLabel('Help text', { exact: true })
      .fill('Newton, mean of ten tablets');
    await openModal(page).getByRole('button', { name: 'Add property' }).click();
    await page.getByRole('cell', { name: 'Tablet hardness', exact: true }).waitFor();
    await page.getByRole('cell', { name: 'tablet-hardness', exact: true }).waitFor();

    await openMasterData(page, 'Products');
    await page.getByRole('button', { name: 'Add product' }).first().click();
    await openDrawer(page).getByLabel('Name', { exact: true }).fill('Hard tablet');
    await openDrawer(page).getByLabel('Largest daily dose', { exact: true }).fill('400');
    await openDrawer(page).getByLabel('Minimum batch size', { exact: true }).fill('100');
    await openDrawer(page).getByLabel('Tablet hardness', { exact: true }).fill('82.5');
    await openDrawer(page).getByRole('button', { name: 'Add product' }).click();
    await page.getByRole('cell', { name: 'Hard tablet', exact: true }).waitFor();

    // Saved in the database, and shown again when the product is opened.
    await expect
      .poll(async () => {
        const [row] = await app.server.db.query<{ additional_properties: object }>(
          `select additional_properties from products where name = 'Hard tablet'`,
        );
        return row?.additional_properties;
      })
      .toEqual({ 'tablet-hardness': 82.5 });
    await page
      .getByRole('row', { name: /Hard tablet/ })
      .getByRole('button', { name: 'Edit' })
      .click();
    await expect
      .poll(() => openDrawer(page).getByLabel('Tablet hardness', { exact: true }).inputValue())
      .toBe('82.5');
  });
});
