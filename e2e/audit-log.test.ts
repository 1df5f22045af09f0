import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDate } from '#core/datetime/format-date-time.ts';
import { readPdfText } from '#server/test/read-pdf-text.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { signIn, startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { allowRefusedRequest } from './browser-errors.ts';
import {
  choose,
  confirmWithReason,
  createViaApi,
  fillDateTime,
  openDrawer,
  openMasterData,
  openSignedIn,
} from './ui.ts';

let app: AppUnderTest;
let plan: number;
let facility: number;
beforeAll(async () => {
  app = await startAppUnderTest();
  const [row] = await app.server.db.query<{ id: number; plan_id: number }>(
    'select id, plan_id from facilities order by id limit 1',
  );
  plan = row!.plan_id;
  facility = row!.id;
  // Audited changes made through the API, each with its reason.
  const token = await app.server.login();
  const F = `/api/v2/plans/${plan}/facilities/${facility}`;
  const units = await app.server.request<{ id: number; shortName: string }[]>(
    'GET',
    `${F}/default_units`,
    { token },
  );
  const id = (name: string) => units.body.find((u) => u.shortName === name)!.id;
  for (const [name, unit, reason] of [
    ['surfaceArea', 'sqin', 'US equipment drawings'],
    ['volume', 'L', 'Large vessels'],
  ] as const) {
    const res = await app.server.request('POST', `${F}/default_units/${id(name)}`, {
      token,
      body: { unit, reason },
    });
    expect(res.status).toBe(200);
  }
  const current = await app.server.request<{ dateTimeSettings: { version: number } }>(
    'GET',
    `${F}/date-time-settings`,
    { token },
  );
  const settings = await app.server.request('POST', `${F}/date-time-settings`, {
    token,
    body: {
      version: current.body.dateTimeSettings.version,
      dateTimeSettings: {
        timezone: 'Asia/Kolkata',
        dateFormat: 'DD-MM-YYYY',
        timeFormat: 'HH:mm:ss',
        country: 'IN',
      },
      reason: 'Site moved to Hyderabad',
    },
  });
  expect(settings.status).toBe(200);
  // A product made of a named active, to be changed on screen.
  const active = await createViaApi(app, token, `${F}/apis`, { name: 'Paracetamol' });
  await createViaApi(app, token, `${F}/products`, {
    name: 'Fever tablets',
    maxDailyDose: { value: 4, unit: 'g' },
    minBatchSize: { value: 100, unit: 'kg' },
    actives: [{ activeId: active, amount: { value: 500, unit: 'mg' } }],
  });
});
afterAll(async () => {
  await app?.close();
});

describe('audit log screen', () => {
  it('is neither listed nor reachable for a user without AuditLog Get', async () => {
    const user = await buildUser(app.server.db, {
      facilityIds: [facility],
      permissions: permissionsWith({ User: ['Get'] }),
    });
    const page = await app.open('/');
    await signIn(page, user.username, user.password);
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    await page.getByRole('link', { name: 'Settings' }).waitFor();
    expect(await page.getByRole('link', { name: 'Audit Log' }).count()).toBe(0);
    await page.goto('/audit-log');
    await page.getByText('You are not allowed to use this page').waitFor();
    expect(await page.getByRole('heading', { name: 'Audit Log' }).count()).toBe(0);
  });

  it('filters by domain and action, shows the facility’s date format, and exports the PDF', async () => {
    const page = await openSignedIn(app);
    await page.getByRole('link', { name: 'Audit Log' }).click();
    await page.getByRole('heading', { name: 'Audit Log' }).waitFor();
    await page.getByText('When (Asia/Kolkata)').waitFor();

    await choose(page.getByLabel('Domains', { exact: true }), 'Default unit');
    await choose(page.getByLabel('Actions', { exact: true }), 'Update');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('2 entries').waitFor();
    const table = page.locator('.ant-table-tbody');
    await table.getByText('US equipment drawings').waitFor();
    await table.getByText('Large vessels').waitFor();
    await table.getByText('Unit: sqcm → sqin').waitFor();
    await table.getByText('Unit: ml → L').waitFor();
    expect(await table.getByText('Site moved to Hyderabad').count()).toBe(0);
    const when = await table.locator('tr').first().locator('td').first().innerText();
    expect(when).toMatch(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Audit Logs.pdf');
    const { text } = await readPdfText(new Uint8Array(readFileSync(await download.path())));
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('Audit Logs');
    expect(flat).toContain('Filters: Domains: Default unit; Actions: Update');
    expect(flat).toContain('2 rows');
    expect(flat).toContain('US equipment drawings Unit: was sqcm, now sqin');
    expect(flat).toContain('Large vessels Unit: was ml, now L');
    expect(flat).toContain('System Administrator');
    expect(flat).toContain(when);
    expect(flat).not.toContain('Site moved to Hyderabad');

    // Dates typed as the facility writes them (day first), on its own calendar: from
    // tomorrow there is nothing yet; from today to today, the two changes again.
    const day = (offset: number) =>
      formatDate(Date.now() + offset * 86_400_000, {
        timezone: 'Asia/Kolkata',
        dateFormat: 'DD-MM-YYYY',
        timeFormat: 'HH:mm:ss',
      });
    await fillDateTime(page.getByLabel('From', { exact: true }), day(1));
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await table.getByText('US equipment drawings').waitFor({ state: 'detached' });
    expect(await table.getByText('Large vessels').count()).toBe(0);
    await fillDateTime(page.getByLabel('From', { exact: true }), day(0));
    await fillDateTime(page.getByLabel('To', { exact: true }), day(0));
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('2 entries').waitFor();
    await table.getByText('US equipment drawings').waitFor();

    // Clearing the filters brings back the other rows, such as the date and time change.
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await table.getByText('Site moved to Hyderabad').waitFor();
  });

  it('follows a date format changed on the Settings screen, and shows server messages on fields', async () => {
    const page = await openSignedIn(app);
    await page.getByRole('link', { name: 'Settings' }).click();

    // The server's rule across fields comes back onto the field it names.
    allowRefusedRequest(422, '/api/v2/users/password-policy');
    await page.getByLabel('Capital letters').fill('5');
    await page.getByLabel('Numbers', { exact: true }).fill('5');
    await page.getByLabel('Reason for change').fill('Stricter composition');
    await page.getByRole('button', { name: 'Save password policy' }).click();
    await page
      .getByText('Must be at least the number of capitals, numbers and special characters required')
      .waitFor();

    await page.getByRole('tab', { name: 'Date and time' }).click();
    await choose(page.getByLabel('Date format', { exact: true }), 'MMM DD, YYYY');
    await choose(page.getByLabel('Time format', { exact: true }), 'hh:mm');
    await page.getByLabel('Reason for change').fill('US-style dates for the audit');
    await page.getByRole('button', { name: 'Save date and time settings' }).click();
    await page.getByText('Date and time settings saved.').waitFor();

    await page.getByRole('link', { name: 'Audit Log' }).click();
    const table = page.locator('.ant-table-tbody');
    const row = table.locator('tr', { hasText: 'US-style dates for the audit' });
    await row.waitFor();
    expect(await row.locator('td').first().innerText()).toMatch(
      /^[A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2} (AM|PM)$/,
    );
    await row.getByText('Date format: DD-MM-YYYY → MMM DD, YYYY').waitFor();
  });

  it('reads a product change by names and labels, shows it on the product’s History, and verifies the trail', async () => {
    const page = await openSignedIn(app);
    await openMasterData(page, 'Products');
    await page
      .getByRole('row', { name: /Fever tablets/ })
      .getByRole('button', { name: 'Edit' })
      .click();
    await openDrawer(page).getByLabel('Minimum batch size', { exact: true }).fill('120');
    await openDrawer(page).getByRole('button', { name: 'Save', exact: true }).click();
    await confirmWithReason(page, 'Larger batches from March');
    await page.getByRole('cell', { name: '120 kg' }).waitFor();

    await page.getByRole('link', { name: 'Audit Log' }).click();
    const table = page.locator('.ant-table-tbody');
    const row = table.locator('tr', { hasText: 'Larger batches from March' });
    await row.getByText('Product ‘Fever tablets’ · Update').waitFor();
    await row.getByText('Minimum batch size: 100 kg → 120 kg').waitFor();
    const created = table.locator('tr', { hasText: 'Product ‘Fever tablets’ · Create' });
    await created.getByText('Active: Paracetamol, Amount per unit: 500 mg').waitFor();
    const screen = await page.locator('main').innerText();
    expect(screen).not.toMatch(/Entity \d|\{"|minBatchSize/);

    await page.getByRole('button', { name: 'Verify integrity' }).click();
    await page.getByRole('status').getByText('The audit trail is intact').waitFor();
    await page
      .getByRole('status')
      .getByText(/entries checked; none was changed/)
      .waitFor();

    await openMasterData(page, 'Products');
    await page
      .getByRole('row', { name: /Fever tablets/ })
      .getByRole('button', { name: 'Edit' })
      .click();
    await openDrawer(page).getByRole('tab', { name: 'History' }).click();
    const history = openDrawer(page).getByRole('table');
    await history.getByText('Minimum batch size: 100 kg → 120 kg').waitFor();
    await history.getByText('Larger batches from March').waitFor();
    await history.getByRole('cell', { name: 'Create', exact: true }).waitFor();
  });
});
