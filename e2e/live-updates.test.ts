import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { ADMIN } from '#server/test/test-server.ts';
import { signIn, startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import {
  browserToken,
  facilityApi,
  facilityRecords,
  openDrawer,
  signInDialog,
  signInToFacility,
} from './ui.ts';
import { seedTwoProducts } from './two-products.ts';

let app: AppUnderTest;

beforeAll(async () => {
  app = await startAppUnderTest();
});
afterAll(async () => {
  await app?.close();
});

const statusTag = (page: Page) => openDrawer(page).getByTestId('record-status');

async function sign(page: Page, action: string, password: string): Promise<void> {
  await openDrawer(page).getByRole('button', { name: action, exact: true }).click();
  await signInDialog(page, action, password);
  await expect.poll(() => page.getByRole('dialog').count(), { timeout: 10_000 }).toBe(1);
}

describe('a record open in one browser', () => {
  it('shows the status another user signed, without a reload', async () => {
    const facility = await facilityApi(app);
    const create = await facilityRecords(app, facility.path);
    const procedureId = await create('cleaning-procedure', { name: `Blender wash ${Date.now()}` });
    const sopId = await create('sop', {
      sopNumber: `SOP-LIVE-${Date.now()}`,
      name: 'Cleaning of the blender',
      cleaningProcedureIds: [procedureId],
    });
    const approver = await buildUser(app.server.db, {
      facilityIds: [facility.id],
      permissions: permissionsWith({ ApprovalPolicy: ['Get', 'Sign'], CleaningProcedure: ['Get'] }),
    });

    // A (the administrator) submits the SOP and keeps its drawer open.
    const a = await app.open('/');
    await signInToFacility(a);
    await a.goto(`/master-data/sop?record=${sopId}`);
    await expect.poll(() => statusTag(a).textContent()).toBe('Being Built');
    await sign(a, 'Submit', ADMIN.password);
    await expect.poll(() => statusTag(a).textContent()).toBe('Being approved');
    // A reload would start a new document, with a new time origin.
    const origin = await a.evaluate(() => performance.timeOrigin);

    // B approves it in another browser.
    const b = await app.open('/');
    await signIn(b, approver.username, approver.password);
    await b.getByRole('button', { name: 'Logout' }).waitFor();
    await b.goto(`/master-data/sop?record=${sopId}`);
    await expect.poll(() => statusTag(b).textContent()).toBe('Being approved');
    await sign(b, 'Approve', approver.password);
    await expect.poll(() => statusTag(b).textContent()).toBe('Active');

    // A's drawer follows within seconds, untouched: no reload, no click.
    await expect.poll(() => statusTag(a).textContent(), { timeout: 10_000 }).toBe('Active');
    expect(await a.evaluate(() => performance.timeOrigin)).toBe(origin);
    expect(new URL(a.url()).searchParams.get('record')).toBe(String(sopId));
  });
});

describe('a pair open on the MAC matrix', () => {
  it('follows a change of its product into the new numbers instead of closing', async () => {
    const facility = await facilityApi(app);
    const { a } = await seedTwoProducts(await facilityRecords(app, facility.path));
    const page = await app.open('/');
    await signInToFacility(page);
    await page.goto('/limits/mac-matrix');
    // B → A: 1 ug × 50 kg / 200 mg = 250 mg.
    await page.getByRole('button', { name: '250 mg' }).first().click();
    await openDrawer(page).getByText('B → A').waitFor();

    // A's minimum batch size doubles (here through the API, as another user's save would).
    const token = await browserToken(page);
    const list = await app.server.request<{ data: { id: number; version: number }[] }>(
      'GET',
      `${facility.path}/products?pageNumber=1&pageLimit=100`,
      { token },
    );
    const product = list.body.data.find((p) => p.id === a);
    const edit = await app.server.request('POST', `${facility.path}/products/${a}`, {
      token,
      body: {
        minBatchSize: { value: 100, unit: 'kg' },
        version: product?.version,
        reason: 'Larger batches validated',
      },
    });
    expect(edit.status).toBe(200);

    // The live update refetches the matrix behind the drawer (its pairs list shows 500 mg), and
    // the drawer stays on B → A with its new MACO.
    await page
      .locator('.ant-table')
      .first()
      .getByText('500 mg', { exact: true })
      .waitFor({ timeout: 20_000 });
    await openDrawer(page).getByText('B → A').waitFor();
    await openDrawer(page).getByText('500 mg').first().waitFor();
  });
});

describe('a list open in one browser', () => {
  it('shows a record another user adds within seconds, without a reload', async () => {
    const facility = await facilityApi(app);
    const page = await app.open('/');
    await signInToFacility(page);
    await page.goto('/master-data/cleaning-procedure');
    await page.getByRole('button', { name: 'Add cleaning procedure' }).waitFor();
    // A mark on this page's window: a reload would lose it.
    await page.evaluate(() => Object.assign(window, { loadedOnce: true }));

    // Another user's write (through the app's own write path, as a save in their browser).
    const name = `Line wash ${Date.now()}`;
    await (
      await facilityRecords(app, facility.path)
    )('cleaning-procedure', { name });

    // Issue 30: the list follows within seconds; nobody reloads or clicks.
    await page.getByRole('cell', { name, exact: true }).waitFor({ timeout: 10_000 });
    expect(await page.evaluate(() => 'loadedOnce' in window)).toBe(true);
  });
});
