import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '#server/cli/seed-demo.ts';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { facilityApi, openMasterData, openSignedIn } from './ui.ts';
import { allowRefusedRequest } from './browser-errors.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

let app: AppUnderTest;
let page: Page;
let F: string;

beforeAll(async () => {
  app = await startAppUnderTest();
  const facility = await facilityApi(app);
  F = facility.path;
  await seedDemo(app.server.db, facility.id);
  page = await openSignedIn(app);
});
afterAll(async () => {
  await app?.close();
});

/**
 * The facility's master data straight from the database, to compare before and after: the
 * browser's sign-in ends any other session of the admin, so the API is not asked here.
 */
async function snapshot(): Promise<Record<string, unknown[]>> {
  const id = Number(F.split('/').pop());
  const out: Record<string, unknown[]> = {};
  for (const table of ['products', 'equipment', 'actives', 'productions']) {
    out[table] = await app.server.db.query(
      `select * from ${table} where facility_id = $1 order by id`,
      [id],
    );
  }
  return out;
}

function columnOf(sheet: ExcelJS.Worksheet, header: string): number {
  const values = sheet.getRow(1).values as unknown[];
  const index = values.indexOf(header);
  if (index < 1) throw new Error(`no column ${header} in ${sheet.name}`);
  return index;
}

async function importInUi(name: string, buffer: Buffer): Promise<void> {
  await page.locator('input[type=file]').setInputFiles({ name, mimeType: XLSX, buffer });
}

describe('master data workbook in the browser', () => {
  let exported: Buffer;

  it('exports the facility’s workbook as a download', async () => {
    await openMasterData(page, 'Import / export');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Master Data - Oral Solid Dosage Plant.xlsx');
    exported = await readFile(await download.path());
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(exported as unknown as ArrayBuffer);
    expect(workbook.getWorksheet('Products')!.rowCount).toBe(1 + 48);
  });

  it('refuses a workbook with problems, lists each by sheet, row and column, and changes nothing', async () => {
    allowRefusedRequest(422, /\/facilities\/\d+\/master/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(exported as unknown as ArrayBuffer);
    const equipment = workbook.getWorksheet('Equipment')!;
    equipment.getRow(3).getCell(columnOf(equipment, 'Surface area unit')).value = 'mg';
    const products = workbook.getWorksheet('Products')!;
    products.getRow(4).getCell(columnOf(products, 'Actives')).value = 'Unobtainium | 10 mg';
    const before = await snapshot();

    await importInUi('broken.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()));
    const result = page.getByRole('region', { name: 'Import result' });
    await result.getByText('Nothing was imported').waitFor();
    const problems = result.locator('.ant-table-tbody tr.ant-table-row');
    const rows = await problems.evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        ['Equipment', '3', 'Surface area unit', expect.any(String)],
        ['Products', '4', 'Actives', expect.stringContaining('Unobtainium')],
      ]),
    );
    expect(await snapshot()).toEqual(before);
  });

  it('imports a clean workbook and shows the counts', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(exported as unknown as ArrayBuffer);
    const equipment = workbook.getWorksheet('Equipment')!;
    const area = equipment.getRow(2).getCell(columnOf(equipment, 'Surface area'));
    area.value = Number(area.value) + 1;
    const name = String(equipment.getRow(2).getCell(1).value);

    await importInUi('clean.xlsx', Buffer.from(await workbook.xlsx.writeBuffer()));
    const result = page.getByRole('region', { name: 'Import result' });
    await result.getByText('Imported clean.xlsx').waitFor();
    const stat = (title: string) =>
      result
        .locator('.ant-statistic')
        .filter({ hasText: title })
        .locator('.ant-statistic-content-value')
        .textContent();
    expect(await stat('Created')).toBe('0');
    expect(await stat('Updated')).toBe('1');
    const id = Number(F.split('/').pop());
    const [row] = await app.server.db.query<{ version: number }>(
      'select version from equipment where facility_id = $1 and name = $2',
      [id, name],
    );
    expect(row!.version).toBeGreaterThan(1);
  });
});
