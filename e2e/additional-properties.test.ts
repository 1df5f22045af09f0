import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../server/test/test-server.ts';
import { signIn, startAppUnderTest, type AppUnderTest } from './app-under-test.ts';

let app: AppUnderTest;
let page: Page;
beforeAll(async () => {
  app = await startAppUnderTest();
  page = await app.open('/');
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.getByRole('button', { name: 'Oral Solid Dosage Plant' }).click();
  await page.getByRole('button', { name: 'Logout' }).waitFor();
});
afterAll(async () => {
  await app?.close();
});

const drawer = () => page.locator('.ant-drawer-open .ant-drawer-section').last();
const modal = () => page.locator('.ant-modal-wrap:visible .ant-modal').last();

/** An antd Select: open it and click the option, trying again if the opening animation eats it. */
async function choose(select: Locator, name: string): Promise<void> {
  const root = select.locator(
    "xpath=ancestor::div[contains(concat(' ', normalize-space(@class), ' '), ' ant-select ')][1]",
  );
  for (let attempt = 0; ; attempt++) {
    if ((await select.getAttribute('aria-expanded')) !== 'true') await select.click();
    await page.locator(`.ant-select-item-option[title="${name}"]:visible`).click();
    try {
      await root.getByText(name, { exact: true }).waitFor({ timeout: 2000 });
      return;
    } catch (error) {
      if (attempt >= 2) throw error;
    }
  }
}

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
    await modal().getByLabel('Label', { exact: true }).fill('Tablet hardness');
    await choose(modal().getByLabel('Kind', { exact: true }), 'Number');
    await modal().getByLabel('Help text', { exact: true }).fill('Newton, mean of ten tablets');
    await modal().getByRole('button', { name: 'Add property' }).click();
    await page.getByRole('cell', { name: 'Tablet hardness', exact: true }).waitFor();
    await page.getByRole('cell', { name: 'tablet-hardness', exact: true }).waitFor();

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Master data' })
      .click();
    await page
      .getByRole('navigation', { name: 'Master data' })
      .getByRole('link', { name: 'Products', exact: true })
      .click();
    await page.getByRole('heading', { name: 'Products', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Add product' }).first().click();
    await drawer().getByLabel('Name', { exact: true }).fill('Hard tablet');
    await drawer().getByLabel('Largest daily dose', { exact: true }).fill('400');
    await drawer().getByLabel('Minimum batch size', { exact: true }).fill('100');
    await drawer().getByLabel('Tablet hardness', { exact: true }).fill('82.5');
    await drawer().getByRole('button', { name: 'Add product' }).click();
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
      .poll(() => drawer().getByLabel('Tablet hardness', { exact: true }).inputValue())
      .toBe('82.5');
  });
});
