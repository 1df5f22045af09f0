import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatDay } from '#core/datetime/format-date-time.ts';
import { ADMIN } from '#server/test/test-server.ts';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import {
  browserToken,
  changeArrivingLive,
  choose,
  createViaApi,
  facilityApi,
  facilityCreator,
  facilityRecords,
  openModal,
  openSignedIn,
} from './ui.ts';
import { allowRefusedRequest } from './browser-errors.ts';

let app: AppUnderTest;
let page: Page;

/** Two products made on one line and no study of either: every cell of the matrix is a gap. */
async function seedFacility(): Promise<void> {
  const create = await facilityCreator(app, (await facilityApi(app)).path);
  const active = await create('apis', {
    name: 'Alpha',
    pde: { value: 0.1, unit: 'mg' },
    therapeuticDose: { value: 10, unit: 'mg' },
  });
  const product = (name: string) =>
    create('products', {
      name,
      maxDailyDose: { value: 200, unit: 'mg' },
      minBatchSize: { value: 50, unit: 'kg' },
      actives: [{ activeId: active, amount: { value: 5, unit: 'mg' } }],
    });
  const a = await product('Tablet A');
  const b = await product('Tablet B');
  const mixer = await create('equipments', {
    name: 'Mixer',
    surfaceArea: { value: 12.5, unit: 'sqm' },
  });
  await create('productions', { name: 'Line 1', equipmentIds: [mixer], productIds: [a, b] });
}

beforeAll(async () => {
  app = await startAppUnderTest();
  await seedFacility();
  page = await openSignedIn(app);
});
afterAll(async () => {
  await app?.close();
});

it('starts an assessment, follows it to done, finds a gap and dismisses its task with a signature', async () => {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Cleaning assessments' })
    .click();
  await page.getByRole('heading', { name: 'Cleaning assessments' }).waitFor();
  await page.getByText('No assessment yet').waitFor();

  await page.getByRole('button', { name: 'Start assessment' }).click();
  const start = openModal(page);
  await start.getByLabel('Reason (optional)').fill('Quarterly review');
  await start.getByRole('button', { name: 'Start assessment' }).click();

  // The assessment opens at once; its job reports progress until the result is there.
  await page.waitForURL(/\/cleaning-assessments\/\d+$/);
  await page.getByRole('heading', { name: /Cleaning assessment FCE-\d+/ }).waitFor();
  await page.getByRole('tab', { name: 'Coverage matrix' }).waitFor({ timeout: 30_000 });
  expect(await page.getByRole('status', { name: 'Assessment progress' }).count()).toBe(0);
  await expect
    .poll(() => page.getByTestId('record-status').first().textContent())
    .toBe('Being Built');

  const gap = page.getByRole('button', { name: 'Tablet A on Line 1: Not covered' });
  await gap.click();
  const drawer = page.locator('.ant-drawer-open');
  await drawer.getByText('No study of this product on this train.').waitFor();
  await drawer.getByRole('button', { name: 'Close' }).click();
  await drawer.waitFor({ state: 'detached' });

  // Filtering by state keeps the gaps only.
  await page.getByRole('checkbox', { name: /Covered by a study/ }).check();
  await page.getByText('No cell matches the filter.').waitFor();
  await page.getByRole('checkbox', { name: /Covered by a study/ }).uncheck();

  await page.getByRole('tab', { name: 'Qualification tasks' }).click();
  const row = page.locator('tr.ant-table-row', { hasText: 'Tablet A' });
  await row.waitFor();
  expect(await row.textContent()).toContain('New Product Introduction');
  await row.getByRole('button', { name: 'Dismiss' }).click();
  const dialog = openModal(page);
  // Without a justification the dismissal is refused by the form.
  await dialog.getByLabel('Password').fill(ADMIN.password);
  await dialog.getByRole('button', { name: 'Sign and dismiss' }).click();
  await dialog.getByText('Say why this gap needs no study').waitFor();
  // A wrong password is refused on its field.
  allowRefusedRequest(422, /\/qualification-task\/task\/\d+/);
  await dialog.getByLabel('Justification').fill('Tablet A is made on Line 1 for one campaign only');
  await dialog.getByLabel('Password').fill('not my password');
  await dialog.getByRole('button', { name: 'Sign and dismiss' }).click();
  await expect
    .poll(() => dialog.locator('#task-decision_password_help').textContent())
    .toBeTruthy();
  await dialog.getByLabel('Password').fill(ADMIN.password);
  await dialog.getByRole('button', { name: 'Sign and dismiss' }).click();
  await expect.poll(() => page.getByRole('dialog').count(), { timeout: 10_000 }).toBe(0);

  // Gone from the open tasks; the dismissed one says who decided and why.
  await row.waitFor({ state: 'detached' });

  // The other task accepted with a due date typed as the facility writes dates.
  const later = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
  const rowB = page.locator('tr.ant-table-row', { hasText: 'Tablet B' });
  await rowB.getByRole('button', { name: 'Accept' }).click();
  const accept = openModal(page);
  expect(await accept.getByLabel('Due date').inputValue()).toMatch(/^\d{2} [A-Z][a-z]{2}, \d{4}$/);
  const due = accept.getByLabel('Due date');
  await due.click();
  await due.fill(formatDay(later));
  // Another user's change arrives as a live update while the date is being typed: the dialog
  // re-renders under it, and the typed text must survive until Enter.
  const other = await facilityRecords(app, (await facilityApi(app)).path);
  await changeArrivingLive(page, /\/qualification-task\?/, () =>
    other('apis', { name: `Drug Z ${Date.now()}`, pde: { value: 1, unit: 'ug' } }),
  );
  await due.press('Enter');
  await expect.poll(() => due.inputValue()).toBe(formatDay(later));
  await accept.getByLabel('Password').fill(ADMIN.password);
  await accept.getByRole('button', { name: 'Sign and accept' }).click();
  await expect.poll(() => page.getByRole('dialog').count(), { timeout: 10_000 }).toBe(0);
  await rowB.waitFor({ state: 'detached' });
  await choose(page.getByRole('combobox', { name: 'Task status' }), 'Accepted');
  await expect.poll(() => rowB.textContent()).toContain(formatDay(later));
  await choose(page.getByRole('combobox', { name: 'Task status' }), 'Dismissed');
  const dismissed = page.locator('tr.ant-table-row', { hasText: 'Tablet A' });
  await expect.poll(() => dismissed.textContent()).toContain('one campaign only');
  expect(await dismissed.textContent()).toContain('Dismissed');
});

it('a historical study covers its cell, linked from the evidence; the next assessment shows the gap closed; the risk goal is set against it', async () => {
  const facility = await facilityApi(app);
  // The browser's session: a new sign-in would end it.
  const token = await browserToken(page);
  const ids = async (path: string) =>
    new Map(
      (
        await app.server.request<{ data: { id: number; name: string }[] }>(
          'GET',
          `${facility.path}/${path}`,
          { token },
        )
      ).body.data.map((r) => [r.name, r.id]),
    );
  const products = await ids('products');
  const productions = await ids('productions');
  await createViaApi(app, token, `${facility.path}/historical-study`, {
    productId: products.get('Tablet B'),
    productionId: productions.get('Line 1'),
    studyType: 'Validation',
    completedDate: '2024-03-01',
    outcome: 'Validated',
    name: 'CV-REP-0042',
  });

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Cleaning assessments' })
    .click();
  const list = page.getByRole('table', { name: 'Cleaning assessments' });
  // The first assessment is done, with its two gaps.
  const first = list.locator('tr.ant-table-row', { hasText: 'FCE-0001' });
  await expect.poll(() => first.textContent(), { timeout: 15_000 }).toContain('Done');
  expect(await first.textContent()).toContain('Quarterly review');
  expect(await first.textContent()).toContain('System Administrator');

  await page.getByRole('button', { name: 'Start assessment' }).click();
  await openModal(page).getByRole('button', { name: 'Start assessment' }).click();
  await page.waitForURL(/\/cleaning-assessments\/\d+$/);
  await page.getByRole('tab', { name: 'Coverage matrix' }).waitFor({ timeout: 30_000 });

  await page.getByRole('button', { name: 'Tablet B on Line 1: Covered by a study' }).click();
  const drawer = page.locator('.ant-drawer-open');
  await drawer.getByRole('link', { name: 'CV-REP-0042' }).click();
  await page.waitForURL(/\/master-data\/historical-study\?record=\d+/);
  await page.getByRole('heading', { name: 'Historical studies' }).waitFor();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Cleaning assessments' })
    .click();
  await page.getByRole('link', { name: 'FCE-0002' }).click();
  await page.getByRole('tab', { name: 'Since the prior assessment' }).click();
  const closed = page.locator('.ant-list', { hasText: 'Closed gaps' });
  await expect.poll(() => closed.textContent()).toContain('Tablet B on Line 1');

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Cleaning assessments' })
    .click();
  await page.getByRole('tab', { name: 'Risk goal' }).click();
  await page.getByRole('button', { name: 'Set the risk goal' }).click();
  const goal = openModal(page);
  await goal.getByLabel('Share of product × train cells covered (%)').fill('80');
  await goal.getByLabel('Reason').fill('Site target for 2027');
  await goal.getByRole('button', { name: 'Save' }).click();
  const card = page.getByRole('region', { name: 'Risk goal' });
  const covered = page.locator('.ant-descriptions-row', { hasText: 'Covered cells' }).last();
  // The row shows the share before the saved goal reaches it: wait for the judgement itself.
  await card.getByText('80 %').waitFor();
  await expect.poll(() => covered.textContent()).toContain('Does not meet');
  expect(await covered.textContent()).toContain('50.0 %');
});
