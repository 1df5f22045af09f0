import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { allowRefusedRequest } from './browser-errors.ts';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import {
  choose,
  discardQuestion,
  facilityApi,
  facilityCreator,
  openDrawer,
  openSignedIn,
} from './ui.ts';

/*
 * The protocol form (issue 26): choosing the train fills the protocol's equipment and products,
 * the user narrows them, a wider choice comes back from the server on the field, and Cancel on
 * a filled form asks before discarding it.
 */

let app: AppUnderTest;
let page: Page;
// Unique per attempt: a retry runs on the same database.
const stamp = Date.now();
const names = {
  line: `Line P ${stamp}`,
  mixer: `Mixer P ${stamp}`,
  dryer: `Dryer P ${stamp}`,
  press: `Press elsewhere ${stamp}`,
  product: `Tablet P ${stamp}`,
};

beforeAll(async () => {
  app = await startAppUnderTest();
  const facility = await facilityApi(app);
  const create = await facilityCreator(app, facility.path);
  const equipment = async (name: string) =>
    create('equipments', { name, surfaceArea: { value: 2, unit: 'sqm' } });
  const mixer = await equipment(names.mixer);
  const dryer = await equipment(names.dryer);
  await equipment(names.press);
  const api = await create('apis', { name: `Active P ${stamp}`, pde: { value: 1, unit: 'mg' } });
  const product = await create('products', {
    name: names.product,
    maxDailyDose: { value: 1000, unit: 'mg' },
    minBatchSize: { value: 100, unit: 'kg' },
    actives: [{ activeId: api, amount: { value: 10, unit: 'mg' } }],
  });
  await create('productions', {
    name: names.line,
    equipmentIds: [mixer, dryer],
    productIds: [product],
  });
  page = await openSignedIn(app);
});
afterAll(async () => {
  await app?.close();
});

/** The whole antd select around a labelled input, where the chosen values show. */
const selectOf = (input: Locator) =>
  input.locator(
    "xpath=ancestor::div[contains(concat(' ', normalize-space(@class), ' '), ' ant-select ')][1]",
  );

async function openNewProtocol(): Promise<Locator> {
  await page.goto('/protocols');
  await page.getByRole('heading', { name: 'Protocols', exact: true }).waitFor();
  await page.getByRole('button', { name: 'Add protocol' }).first().click();
  return openDrawer(page);
}

it('fills the equipment and products from the chosen train; a wider choice is refused on its field', async () => {
  const form = await openNewProtocol();
  // An untouched form closes without asking.
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect.poll(() => page.locator('.ant-drawer-open').count()).toBe(0);

  const filled = await openNewProtocol();
  await filled.getByLabel('Protocol number').fill(`CVP-P-${stamp}`);
  await filled.getByLabel('Title', { exact: true }).fill(`Train fill ${stamp}`);
  await choose(filled.getByLabel('Production (train)'), names.line);
  const equipment = selectOf(filled.getByLabel('Equipment', { exact: true }));
  const products = selectOf(filled.getByLabel('Products', { exact: true }));
  await equipment.getByText(names.mixer, { exact: true }).waitFor();
  await equipment.getByText(names.dryer, { exact: true }).waitFor();
  await products.getByText(names.product, { exact: true }).waitFor();
  expect(await equipment.getByText(names.press, { exact: true }).count()).toBe(0);

  // Widened with an item off the train: the server's message lands on the Equipment field.
  allowRefusedRequest(422, /\/facilities\/\d+\/protocols/);
  await choose(filled.getByLabel('Equipment', { exact: true }), names.press);
  await page.locator('.ant-drawer-open').getByRole('button', { name: 'Add protocol' }).click();
  await filled.getByText(`${names.press} is not on the production ${names.line}`).waitFor();

  // Cancel on the filled form asks; keeping the edits leaves the form as it was.
  await filled.getByRole('button', { name: 'Cancel' }).click();
  await (await discardQuestion(page)).getByRole('button', { name: 'Keep editing' }).click();
  await expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
  expect(await filled.getByLabel('Title', { exact: true }).inputValue()).toBe(
    `Train fill ${stamp}`,
  );
  // Discarding closes the drawer, and nothing was saved.
  await filled.getByRole('button', { name: 'Cancel' }).click();
  await (await discardQuestion(page)).getByRole('button', { name: 'Discard' }).click();
  await expect.poll(() => page.locator('.ant-drawer-open').count()).toBe(0);
  expect(await page.getByRole('row', { name: new RegExp(`Train fill ${stamp}`) }).count()).toBe(0);
});
