import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppUnderTest } from './app-under-test.ts';
import { allowRefusedRequest } from './browser-errors.ts';
import {
  browserToken,
  createViaApi,
  facilityApi,
  followLink,
  openMasterData,
  startSignedIn,
} from './ui.ts';
import { seedTwoProducts } from './two-products.ts';

let app: AppUnderTest;
let page: Page;
let elsewhere: number;
let productC: number;

beforeAll(async () => {
  ({ app, page } = await startSignedIn());
  // One session per user: use the browser's for the test's own calls.
  const token = await browserToken(page);
  const { id, path: F } = await facilityApi(app);
  const create = (path: string, body: unknown) => createViaApi(app, token, `${F}/${path}`, body);
  await seedTwoProducts(create);
  const [alpha] = await app.server.db.query<{ id: number }>(
    `select id from actives where facility_id = $1 and name = 'Alpha'`,
    [id],
  );
  // Alpha is in A and, outside any production, in C as well.
  productC = await create('products', {
    name: 'C',
    maxDailyDose: { value: 100, unit: 'mg' },
    minBatchSize: { value: 20, unit: 'kg' },
    actives: [{ activeId: alpha!.id, amount: { value: 1, unit: 'mg' } }],
  });
  // An active of another facility, whose id this facility's pages must not show.
  const [other] = await app.server.db.query<{ id: number; plan_id: number }>(
    'select id, plan_id from facilities where id <> $1 order by id limit 1',
    [id],
  );
  elsewhere = await createViaApi(
    app,
    token,
    `/api/v2/plans/${other!.plan_id}/facilities/${other!.id}/apis`,
    { name: 'Secret Omega' },
  );
});
afterAll(async () => {
  await app?.close();
});

const main = () => page.getByRole('main');

describe('record pages', () => {
  it('open an active from its list, show the products using it, and lead on to a product', async () => {
    await openMasterData(page, 'Actives');
    await page.getByRole('link', { name: 'Alpha', exact: true }).click();
    await page.getByRole('heading', { name: 'Alpha', exact: true }).waitFor();
    // Its fields with their labels and units.
    await page.getByRole('row', { name: 'PDE/ADE 0.1 mg' }).waitFor();

    await page.getByRole('tab', { name: 'Where used' }).click();
    const products = page.getByRole('region', { name: 'Where used' }).getByRole('region', {
      name: 'Products',
    });
    await products.getByText('Products (2)').waitFor();
    const names = await products.getByRole('link').allTextContents();
    expect(names).toEqual(['A', 'C']);

    await products.getByRole('link', { name: 'A', exact: true }).click();
    await page.getByRole('heading', { name: 'A', exact: true }).waitFor();
    await page.getByRole('row', { name: 'Minimum batch size 50 kg' }).waitFor();
    // The product's active links back to the active's page.
    await main().getByRole('link', { name: 'Alpha', exact: true }).waitFor();
    await page.getByRole('tab', { name: 'Where used' }).click();
    await page
      .getByRole('region', { name: 'Productions' })
      .getByRole('link', { name: 'Line 1' })
      .click();
    await page.getByRole('heading', { name: 'Line 1', exact: true }).waitFor();
    await main().getByRole('link', { name: 'E1', exact: true }).waitFor();
  });

  it('say so for a record of another facility or one that does not exist, and show none of it', async () => {
    // The server refuses both on purpose; the page says so.
    allowRefusedRequest(404, new RegExp(`/facilities/\\d+/apis/${elsewhere}`));
    allowRefusedRequest(404, /\/facilities\/\d+\/products\/999999/);
    await page.goto(`/master-data/apis/${elsewhere}`);
    await page.getByText('No such active in this facility').waitFor();
    expect(await page.getByText('Secret Omega').count()).toBe(0);
    await page.goto('/master-data/products/999999');
    await page.getByText('No such product in this facility').waitFor();
  });

  it('show an archived record, with why it was archived', async () => {
    const { path: F } = await facilityApi(app);
    const archived = await app.server.request('PUT', `${F}/products/${productC}/archive`, {
      token: await browserToken(page),
      body: { reason: 'Discontinued in 2026' },
    });
    expect(archived.status).toBe(200);
    await page.goto(`/master-data/products/${productC}`);
    await page.getByText('This product is archived').waitFor();
    await page.getByText(/Reason: Discontinued in 2026/).waitFor();
    await page.getByRole('tab', { name: 'Where used' }).click();
    await page.getByText('Nothing you can view in this facility uses this product.').waitFor();
  });

  it('are where the inputs of a derivation link to', async () => {
    // Opened afresh, so that a retry does not start under a drawer an attempt left open.
    await page.goto('/limits/mac-matrix');
    await page.getByRole('heading', { name: 'MAC matrix' }).waitFor();
    await page.getByRole('button', { name: '250 mg' }).click();
    const drawer = page.locator('.ant-drawer-open');
    await drawer.getByRole('button', { name: /Health-based/ }).click();
    // B → A: the PDE of B's active Beta, and A's minimum batch size and daily dose.
    const batchSize = drawer.getByRole('link', { name: /^product A: minimum batch size/i });
    const batchSizePage = await batchSize.first().getAttribute('href');
    await followLink(drawer.getByRole('link', { name: /^active Beta/ }).first(), /\/apis\//);
    await page.getByRole('heading', { name: 'Beta', exact: true }).waitFor();
    await page.getByRole('row', { name: 'PDE/ADE 1 µg' }).waitFor();

    // The batch size's link finds product A by its name and opens its page.
    await page.goto(batchSizePage ?? '');
    await page.getByRole('heading', { name: 'A', exact: true }).waitFor();
    await page.getByRole('row', { name: 'Minimum batch size 50 kg' }).waitFor();
    expect(page.url()).toMatch(/\/master-data\/products\/\d+$/);
  });
});
