import ExcelJS from 'exceljs';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { choose, facilityApi, facilityCreator, openModal, openSignedIn } from './ui.ts';
import { expectWords } from './words.ts';
import { measureSelects, wrong } from './dropdown-widths.ts';

let app: AppUnderTest;
let page: Page;

beforeAll(async () => {
  app = await startAppUnderTest();
  const facility = await facilityApi(app);
  // Built through the API before the browser signs in (a sign-in ends the admin's other session).
  const create = await facilityCreator(app, facility.path);
  for (let i = 1; i <= 12; i++) {
    await create('equipments', {
      name: `Blender ${String(i).padStart(2, '0')}`,
      surfaceArea: { value: i, unit: 'sqm' },
    });
  }
  await create('equipments', { name: 'Scoop', surfaceArea: { value: 50, unit: 'sqcm' } });
  page = await openSignedIn(app);
});
afterAll(async () => {
  await app?.close();
});

describe('Custom reports in the browser', () => {
  it('builds and saves a report, pages its preview by 10 and downloads it as xlsx', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Custom reports' })
      .click();
    await page.getByRole('heading', { name: 'Custom reports' }).waitFor();
    await page.getByRole('button', { name: 'New custom report' }).click();
    const dialog = openModal(page);
    await dialog.getByLabel('Name').fill('Blenders by area');
    await choose(dialog.getByLabel('Source'), 'Equipment');
    await choose(dialog.getByLabel('Columns'), 'Name', 'Surface area (cm²)');
    await dialog.getByRole('button', { name: 'Add filter' }).click();
    await choose(dialog.getByLabel('Filter 1 column'), 'Surface area (cm²)');
    await choose(dialog.getByLabel('Filter 1 operator'), 'greater than or equal to');
    await dialog.getByLabel('Filter 1 value').fill('10000');
    await dialog.getByRole('button', { name: 'Save' }).click();

    // Saved, the report opens in the preview: 12 blenders of at least 1 sqm, 10 a page.
    const preview = page.locator('.ant-card').filter({ hasText: 'Preview: Blenders by area' });
    await preview.getByText('12 rows').waitFor();
    await expect(preview.locator('tbody tr.ant-table-row').count()).resolves.toBe(10);
    await expect(preview.getByText('Scoop').count()).resolves.toBe(0);
    await preview.locator('.ant-pagination-item-2').click();
    await preview.getByText('Blender 12').waitFor();
    await expect(preview.locator('tbody tr.ant-table-row').count()).resolves.toBe(2);
    // Numbers through the app's one formatter (issue 30).
    await expect(preview.getByText('120,000').isVisible()).resolves.toBe(true);
    await expectWords(page, 'custom report preview');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      preview.getByRole('button', { name: 'Download xlsx' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(
      /^equipment \d{4}-\d{2}-\d{2} \d{2}-\d{2}-\d{2}\.xlsx$/,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await readFile(await download.path())) as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Report')!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Name', 'Surface area (cm²)']);
    expect(sheet.rowCount).toBe(13);
    expect(sheet.getRow(2).values).toEqual([undefined, 'Blender 01', 10000]);

    // The saved report is listed with its version.
    const row = page.locator('tr.ant-table-row').filter({ hasText: 'Blenders by area' });
    await expect(row.getByText('Name, Surface area').isVisible()).resolves.toBe(true);
  });

  it('offers the options of a filter in words and sends their values (issue 30)', async () => {
    await page.getByRole('button', { name: 'New custom report' }).click();
    const dialog = openModal(page);
    await dialog.getByLabel('Name').fill('Swab results');
    await choose(dialog.getByLabel('Source'), 'Sample results');
    await choose(dialog.getByLabel('Columns'), 'Study', 'Sample type', 'Passed');
    await dialog.getByRole('button', { name: 'Add filter' }).click();
    await choose(dialog.getByLabel('Filter 1 column'), 'Sample type');
    await choose(dialog.getByLabel('Filter 1 operator'), 'equal to');
    const value = dialog.getByLabel('Filter 1 value');
    await value.click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await options.first().waitFor();
    expect(await options.allInnerTexts()).toEqual(['Swab', 'Rinse']);
    await options.filter({ hasText: 'Swab' }).click();
    const chosen = value.locator(
      "xpath=ancestor::div[contains(concat(' ', normalize-space(@class), ' '), ' ant-select ')][1]",
    );
    await chosen.getByText('Swab', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Add filter' }).click();
    await choose(dialog.getByLabel('Filter 2 column'), 'Passed');
    await choose(dialog.getByLabel('Filter 2 operator'), 'equal to');
    await choose(dialog.getByLabel('Filter 2 value'), 'No');
    await expectWords(page, 'custom report builder');
    // Issue 30's dropdown in a dialog: each filter's lists open as wide as their labels.
    const lists = await measureSelects(page, dialog, 'custom report builder');
    expect(lists.length).toBeGreaterThanOrEqual(8);
    expect(wrong(lists), JSON.stringify(wrong(lists), null, 1)).toEqual([]);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.locator('.ant-card').filter({ hasText: 'Preview: Swab results' }).waitFor();

    // The words were shown; the codes were sent and kept.
    const facility = await facilityApi(app);
    const saved = await app.server.db.query<{ filters: unknown }>(
      `select filters from custom_reports where facility_id = $1 and name = 'Swab results'`,
      [facility.id],
    );
    expect(saved[0]?.filters).toEqual([
      { column: 'sampleType', operator: 'EqualTo', value: 'swab' },
      { column: 'passed', operator: 'EqualTo', value: 'false' },
    ]);
  });
});
