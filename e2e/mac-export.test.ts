import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMacFacility } from '#server/test/mac-test-data.ts';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { choose, facilityApi, openSignedIn } from './ui.ts';

let app: AppUnderTest;
let page: Page;

beforeAll(async () => {
  app = await startAppUnderTest();
  const facility = await facilityApi(app);
  // Built through the API before the browser signs in (a sign-in ends the admin's other session).
  await buildMacFacility(app.server, facility.id);
  page = await openSignedIn(app);
});
afterAll(async () => {
  await app?.close();
});

describe('MAC matrix exports in the browser', () => {
  it('exports the matrix to Excel, then one production’s matrix and its PDF', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'MAC matrix' })
      .click();
    await page.getByRole('tab', { name: 'Pairs' }).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export to Excel' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(
      /^MAC Matrix Oral Solid Dosage Plant \d{4}-\d\d-\d\d \d\d-\d\d-\d\d\.xlsx$/,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await readFile(await download.path())) as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['MAC Matrix', 'Pairs', 'Inputs']);
    expect(workbook.getWorksheet('Pairs')!.rowCount).toBe(1 + 4);
    // B after A: the general limit, 10 ppm × 100 kg = 1,000 mg.
    expect(workbook.getWorksheet('MAC Matrix')!.getCell('C2').value).toBeCloseTo(1_000, 9);
    await page.getByText(/^Saved MAC Matrix/).waitFor();

    await choose(page.getByLabel('Production', { exact: true }), 'Line 2');
    const [narrowed] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export to Excel' }).click(),
    ]);
    const line2 = new ExcelJS.Workbook();
    await line2.xlsx.load((await readFile(await narrowed.path())) as unknown as ArrayBuffer);
    expect(line2.getWorksheet('MAC Matrix')!.getRow(1).values).toEqual([
      undefined,
      'Previous ↓ · Next → · governing MACO (mg)',
      'C',
      'D',
    ]);

    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'PDF', exact: true }).click(),
    ]);
    expect(pdf.suggestedFilename()).toBe('MAC Matrix Line 2.pdf');
    const bytes = await readFile(await pdf.path());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
