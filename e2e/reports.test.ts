import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdfText } from '#server/test/read-pdf-text.ts';
import { buildMacFacility } from '#server/test/mac-test-data.ts';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { formatDay } from '#core/datetime/format-date-time.ts';
import type { TestBody } from '#server/test/facility-test-file.ts';
import {
  browserToken,
  choose,
  facilityApi,
  fillDateTime,
  openDrawer,
  PLANT,
  openModal,
  openSignedIn,
} from './ui.ts';

let app: AppUnderTest;
let page: Page;

beforeAll(async () => {
  app = await startAppUnderTest();
  const facility = await facilityApi(app);
  // Built through the API before the browser signs in (a sign-in ends the admin's other session).
  const token = await app.server.login();
  await buildMacFacility(app.server, facility.id);
  const created = await app.server.request('POST', `${facility.path}/change-assessments`, {
    token,
    body: { title: 'New blender B2', changeType: 'New equipment' },
  });
  expect(created.status).toBe(200);
  page = await openSignedIn(app);
});
afterAll(async () => {
  await app?.close();
});

describe('Reports in the browser', () => {
  it('generates a production limits report, follows its job and downloads its PDF', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Reports', exact: true })
      .click();
    await page.getByRole('button', { name: 'Generate report' }).click();
    const dialog = openModal(page);
    await choose(dialog.getByLabel('Kind'), 'Production limits');
    await choose(dialog.getByLabel('Production', { exact: true }), 'Line 1');
    await dialog.getByRole('button', { name: 'Generate' }).click();

    // The report opens in a drawer, where its job runs and then its record shows.
    const drawer = openDrawer(page);
    await drawer.getByText('Data SHA-256').waitFor({ timeout: 60_000 });
    await expect(drawer.getByText('Being Built').first().isVisible()).resolves.toBe(true);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      drawer.getByRole('button', { name: 'Download PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('RPT-0001 MAC matrix · Line 1.pdf');
    const { text } = await readPdfText(new Uint8Array(await readFile(await download.path())));
    expect(text).toContain('RPT-0001 v1');
    expect(text).toContain('DRAFT');
    expect(text).toContain('250 mg');
  });

  it('reports on a change assessment chosen by its number and title', async () => {
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Generate report' }).click();
    const dialog = openModal(page);
    await choose(dialog.getByLabel('Kind'), 'Change assessment report');
    await choose(dialog.getByLabel('Change assessment', { exact: true }), 'CA-0001 New blender B2');
    await dialog.getByRole('button', { name: 'Generate' }).click();
    const drawer = openDrawer(page);
    await drawer.getByText('Data SHA-256').waitFor({ timeout: 60_000 });
    await drawer.getByText('RPT-0002 Change assessment CA-0001 · New blender B2').waitFor();
  });

  it('offers the annual summary for the twelve months ending today when there is none yet, in the facility’s date format', async () => {
    await page.keyboard.press('Escape');
    await openDrawer(page).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Annual summary', exact: true }).click();
    const dialog = openModal(page);
    const today = new Date().toISOString().slice(0, 10);
    const yearAgo = new Date(`${today}T00:00:00Z`);
    yearAgo.setUTCFullYear(yearAgo.getUTCFullYear() - 1);
    yearAgo.setUTCDate(yearAgo.getUTCDate() + 1);
    // Shown as the facility writes dates (its default, '06 Dec, 2026').
    expect(await dialog.getByLabel('End', { exact: true }).inputValue()).toBe(formatDay(today));
    expect(await dialog.getByLabel('Start', { exact: true }).inputValue()).toBe(
      formatDay(yearAgo.toISOString().slice(0, 10)),
    );
    // A start typed in that format is the day the summary covers from.
    await fillDateTime(dialog.getByLabel('Start', { exact: true }), '01 Feb, 2026');
    await dialog.getByRole('button', { name: 'Generate' }).click();
    // The summary opens in the drawer while its job runs.
    await openDrawer(page).waitFor();
    const scope = await facilityApi(app);
    const listed = await app.server.request<{ reports: { parameters: TestBody }[] }>(
      'GET',
      `${scope.path}/annualSummary?pageNumber=1&pageLimit=5`,
      { token: await browserToken(page) },
    );
    expect(listed.body.reports[0]!.parameters).toMatchObject({ start: '2026-02-01', end: today });
    await page.keyboard.press('Escape');
    await openDrawer(page).waitFor({ state: 'detached' });
    await page
      .getByRole('table', { name: 'Annual summaries' })
      .getByRole('cell', { name: `01 Feb, 2026 to ${formatDay(today)}` })
      .waitFor();
  });

  it('generates the production limits of every production, titled by the plant, with a workbook', async () => {
    await page.getByRole('button', { name: 'Generate report' }).click();
    const dialog = openModal(page);
    await choose(dialog.getByLabel('Kind'), 'Production limits');
    await dialog.getByRole('button', { name: 'Generate' }).click();
    const drawer = openDrawer(page);
    await drawer.getByText('Data SHA-256').waitFor({ timeout: 60_000 });
    await drawer.getByText(`Production limits · ${PLANT}`).first().waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      drawer.getByRole('button', { name: 'Download XLSX' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Production Data.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await readFile(await download.path())) as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Production limits')!;
    const line1 = sheet
      .getRows(2, sheet.rowCount - 1)!
      .find((r) => r.getCell(1).value === 'Line 1')!;
    // B → A governs Line 1 at 250 mg (the limits test facility's numbers, known by hand).
    expect([line1.getCell(5).value, line1.getCell(6).value]).toEqual([250, 'B → A']);
    await page.keyboard.press('Escape');
  });
});
