import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import {
  browserToken,
  choose,
  confirmWithReason,
  facilityApi,
  facilityRecords,
  openDrawer,
  openMasterData,
  signInDialog,
  openSignedIn,
} from './ui.ts';
import { buildSigners, signAs } from '#server/test/factories/signed-record.ts';
import { ADMIN } from '#server/test/test-server.ts';
import { expectWords } from './words.ts';

/*
 * Master data → Equipment trains: a train of two items in the order the product passes through
 * them, re-ordered in the drawer, with its shared area: Granulator 5000 sqcm + Blender 2 sqm
 * (20,000 sqcm) = 25,000 sqcm.
 */

let app: AppUnderTest;
let page: Page;
let F: string;
const ids: Record<string, number> = {};

/** Adds an item at the end of the train through the drawer's picker. */
async function addItem(name: string, position: number): Promise<void> {
  const drawer = openDrawer(page);
  const picker = drawer.getByLabel('Add equipment', { exact: true });
  await picker.click();
  await picker.fill(name);
  await page.locator(`.ant-select-item-option[title="${name}"]:visible`).click();
  await drawer.getByText(`${position}. ${name}`, { exact: true }).waitFor();
}

beforeAll(async () => {
  app = await startAppUnderTest();
  F = (await facilityApi(app)).path;
  const create = await facilityRecords(app, F);
  ids.Granulator = await create('equipments', {
    name: 'Granulator',
    surfaceArea: { value: 5000, unit: 'sqcm' },
  });
  ids.Blender = await create('equipments', {
    name: 'Blender',
    surfaceArea: { value: 2, unit: 'sqm' },
  });
  page = await openSignedIn(app);
});
afterAll(async () => {
  await app?.close();
});

describe('Equipment trains', () => {
  it('adds a train with its equipment in order, re-orders it and shows the shared area', async () => {
    await openMasterData(page, 'Equipment trains');
    await page.getByRole('button', { name: 'Add equipment train' }).first().click();
    const drawer = openDrawer(page);
    await drawer.getByLabel('Name', { exact: true }).fill('Granulation train');
    await addItem('Granulator', 1);
    await addItem('Blender', 2);
    await drawer.getByRole('button', { name: 'Add equipment train' }).click();
    await page.getByRole('cell', { name: 'Granulation train', exact: true }).waitFor();

    // Blender first: the product meets it before the granulator.
    await page
      .getByRole('row', { name: /Granulation train/ })
      .getByRole('button', { name: 'Edit' })
      .click();
    const edit = openDrawer(page);
    const area = edit.getByLabel('Shared product-contact area');
    await expect.poll(() => edit.getByTestId('train-shared-area').innerText()).toBe('25,000 cm²');
    await area
      .getByText(/Granulator 5000 sqcm \+ Blender 2 sqm → 20000 sqcm = 25000 sqcm/)
      .waitFor();
    await expectWords(page, 'equipment train drawer');
    await edit.getByRole('button', { name: 'Move Blender up' }).click();
    await edit.getByText('1. Blender', { exact: true }).waitFor();
    await edit.getByText('2. Granulator', { exact: true }).waitFor();
    await edit.getByRole('button', { name: 'Save' }).click();
    await confirmWithReason(page, 'The blender comes first');

    const token = await browserToken(page);
    const list = await app.server.request<{ data: { name: string; equipmentIds: number[] }[] }>(
      'GET',
      `${F}/equipment-trains`,
      { token },
    );
    expect(list.body.data.find((t) => t.name === 'Granulation train')?.equipmentIds).toEqual([
      ids.Blender,
      ids.Granulator,
    ]);
    await expectWords(page, 'equipment trains list');
  });

  it('shows the train’s status and version, and is submitted from its record drawer', async () => {
    await openMasterData(page, 'Equipment trains');
    await page
      .getByRole('button', { name: 'Open equipment train Granulation train', exact: true })
      .click();
    const record = openDrawer(page);
    const tag = record.getByTestId('record-status').first();
    await expect.poll(() => tag.textContent()).toBe('Being Built');
    await record.getByRole('button', { name: 'Submit', exact: true }).click();
    await signInDialog(page, 'submit', ADMIN.password);
    await expect.poll(() => tag.textContent()).toBe('Being approved');
    // The approver signs (the submitter may not approve their own version): it is in force.
    const [train] = await app.server.db.query<{ id: number; facility_id: number; plan_id: number }>(
      `select t.id, t.facility_id, f.plan_id from equipment_trains t
         join facilities f on f.id = t.facility_id where t.name = 'Granulation train'`,
    );
    const scope = { planId: train!.plan_id, facilityId: train!.facility_id };
    const { approver } = await buildSigners(app.server.db, scope.facilityId);
    const approved = await signAs(app.server, scope, approver, {
      documentType: 'EquipmentTrain',
      documentId: train!.id,
      action: 'Approve',
    });
    expect(approved.document.status).toBe('Approved');
    await record.getByRole('button', { name: 'Close' }).click();
  });

  it('fills a production’s equipment from the train chosen for it', async () => {
    await openMasterData(page, 'Productions');
    await page.getByRole('button', { name: 'Add production' }).first().click();
    const drawer = openDrawer(page);
    await drawer.getByLabel('Name', { exact: true }).fill('Line on the train');
    await choose(drawer.getByLabel('Equipment train', { exact: true }), 'Granulation train');
    await drawer.getByTitle('Blender', { exact: true }).waitFor();
    await drawer.getByRole('button', { name: 'Add production' }).click();
    await page.getByRole('cell', { name: 'Line on the train', exact: true }).waitFor();
    const token = await browserToken(page);
    const list = await app.server.request<{
      data: { name: string; trainId: number | null; equipmentIds: number[] }[];
    }>('GET', `${F}/productions?search=Line on the train`, { token });
    expect(list.body.data[0]).toMatchObject({
      equipmentIds: [ids.Blender, ids.Granulator],
    });
    expect(list.body.data[0]?.trainId).toEqual(expect.any(Number));
  });
});
