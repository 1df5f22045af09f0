import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../server/test/test-server.ts';
import { signIn, startAppUnderTest, type AppUnderTest } from './app-under-test.ts';

let app: AppUnderTest;
let page: Page;
beforeAll(async () => {
  app = await startAppUnderTest();
  page = await app.open('/');
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.getByRole('button', { name: 'Oral Solid Dosage Plant' }).click();
  await page.getByRole('button', { name: 'Logout' }).waitFor();
});
afterAll(async () => {
  await app?.close();
});

const drawer = () => page.locator('.ant-drawer-open .ant-drawer-section').last();

async function openMasterData(entity: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Master data' })
    .click();
  await page
    .getByRole('navigation', { name: 'Master data' })
    .getByRole('link', { name: entity, exact: true })
    .click();
  await page.getByRole('heading', { name: entity, exact: true }).waitFor();
}

/** An antd Select: open it, type where it searches, click each option, and check it took. */
async function choose(select: Locator, ...names: string[]): Promise<void> {
  const root = select.locator(
    "xpath=ancestor::div[contains(concat(' ', normalize-space(@class), ' '), ' ant-select ')][1]",
  );
  for (const name of names) {
    // The first opening of a dropdown animates in; a click during it may miss, so try again.
    for (let attempt = 0; ; attempt++) {
      if ((await select.getAttribute('aria-expanded')) !== 'true') await select.click();
      if (await select.isEditable()) await select.fill(name);
      await page.locator(`.ant-select-item-option[title="${name}"]:visible`).click();
      try {
        await root.getByText(name, { exact: true }).waitFor({ timeout: 2000 });
        break;
      } catch (error) {
        if (attempt >= 2) throw error;
      }
    }
  }
  // A multiple select stays open after a choice.
  if ((await select.getAttribute('aria-expanded')) === 'true') await select.press('Escape');
}

async function fill(label: string, value: string): Promise<void> {
  await drawer().getByLabel(label, { exact: true }).fill(value);
}

async function submitDrawer(button: string): Promise<void> {
  await drawer().getByRole('button', { name: button }).click();
}

async function addActive(name: string, pdeUg: string): Promise<void> {
  await page.getByRole('button', { name: 'Add active' }).first().click();
  await fill('Name', name);
  await fill('PDE/ADE', pdeUg);
  await choose(drawer().getByLabel('PDE/ADE unit', { exact: true }), 'ug');
  await submitDrawer('Add active');
  await page.getByRole('cell', { name, exact: true }).waitFor();
}

async function addProduct(name: string, active: string, ldd: string, mbs: string): Promise<void> {
  await page.getByRole('button', { name: 'Add product' }).first().click();
  await fill('Name', name);
  await fill('Largest daily dose', ldd);
  await fill('Minimum batch size', mbs);
  await drawer().getByRole('button', { name: 'Add actives' }).click();
  await choose(drawer().getByLabel('Active 1', { exact: true }), active);
  await fill('Amount per unit 1', '10');
  await submitDrawer('Add product');
  await page.getByRole('cell', { name, exact: true }).waitFor();
}

async function openMacMatrix(): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'MAC matrix' })
    .click();
  await page.getByRole('heading', { name: 'MAC matrix' }).waitFor();
}

describe('master data drives the MAC matrix', () => {
  it('shows the empty states before there is any data', async () => {
    await openMasterData('Actives');
    await page.getByText('No actives yet').waitFor();
    await openMacMatrix();
    await page
      .getByText('Limits appear once products with actives share equipment through a production.')
      .waitFor();
  });

  it('creates actives, products, equipment and a production, and the pairs appear', async () => {
    await openMasterData('Actives');
    await addActive('Drug X', '1');
    await addActive('Drug Y', '2');

    await openMasterData('Products');
    // A health-based limit PDE × MBS / LDD: 1 ug × 50 kg / 200 mg = 250 mg for A → B.
    await addProduct('Tablet A', 'Drug X', '400', '100');
    await addProduct('Tablet B', 'Drug Y', '200', '50');

    await openMasterData('Equipment');
    await page.getByText('No equipment yet').waitFor();
    await page.getByRole('button', { name: 'Add equipment' }).first().click();
    await fill('Name', 'Mixer 1');
    await fill('Surface area', '10');
    await choose(drawer().getByLabel('Surface area unit', { exact: true }), 'sqm');
    await submitDrawer('Add equipment');
    await page.getByRole('cell', { name: '10 sqm' }).waitFor();

    // A duplicate name comes back from the server onto the Name field.
    await page.getByRole('button', { name: 'Add equipment' }).first().click();
    await fill('Name', 'mixer 1');
    await fill('Surface area', '5');
    await submitDrawer('Add equipment');
    await drawer().getByText("Equipment with name 'mixer 1' already exists").waitFor();
    await drawer().getByRole('button', { name: 'Cancel' }).click();

    await openMasterData('Productions');
    await page.getByRole('button', { name: 'Add production' }).first().click();
    await fill('Name', 'Line 1');
    await choose(drawer().getByLabel('Equipment', { exact: true }), 'Mixer 1');
    await choose(drawer().getByLabel('Products', { exact: true }), 'Tablet A', 'Tablet B');
    await submitDrawer('Add production');
    // References are listed by name.
    await page.getByRole('cell', { name: 'Tablet A, Tablet B' }).waitFor();

    await openMacMatrix();
    await page.getByText('2 pairs').waitFor();
    await page.getByRole('button', { name: '250 mg' }).waitFor();
    // B → A: 2 ug × 100 kg / 400 mg = 500 mg.
    await page.getByRole('button', { name: '500 mg' }).waitFor();
    // SAL = MACO / area: 250 mg / 100000 sqcm.
    await page.getByRole('button', { name: '0.0025 mg/sqcm' }).waitFor();

    await page.getByRole('button', { name: '250 mg' }).click();
    await drawer().getByText('Tablet A → Tablet B').waitFor();
    await drawer()
      .getByText(/Health-based \(PDE\/ADE\) \(active Drug X\) governs/)
      .waitFor();
    await drawer().getByText('250 mg / 100000 sqcm = 0.0025 mg/sqcm').waitFor();
    // The server's derivation from the inputs, criterion by criterion.
    await drawer()
      .getByRole('button', { name: /Health-based/ })
      .click();
    await drawer()
      .getByText(/MACO = HBEL/)
      .waitFor();
    await page.keyboard.press('Escape');
  });

  it('recomputes the SAL when the equipment surface area changes', async () => {
    await openMasterData('Equipment');
    await page
      .getByRole('row', { name: /Mixer 1/ })
      .getByRole('button', { name: 'Edit' })
      .click();
    await fill('Surface area', '20');
    await submitDrawer('Save');
    const reason = page.getByRole('dialog').filter({ hasText: 'Why are you changing' });
    await reason.getByLabel('Reason').fill('Measured again');
    await reason.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: '20 sqm' }).waitFor();

    await openMacMatrix();
    await page.getByRole('button', { name: '0.00125 mg/sqcm' }).waitFor();
    expect(await page.getByRole('button', { name: '0.0025 mg/sqcm' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: '250 mg' }).count()).toBe(1);
  });
  it('keeps what the user typed through a version conflict', async () => {
    await openMasterData('Equipment');
    await page
      .getByRole('row', { name: /Mixer 1/ })
      .getByRole('button', { name: 'Edit' })
      .click();
    await fill('External ID', 'EQ-7');

    // Someone else saves the same item meanwhile (same session, straight to the API).
    const status = await page.evaluate(async () => {
      const F = `/api/v2/plans/${sessionStorage.getItem('planId')}/facilities/${sessionStorage.getItem('currentFacilityId')}`;
      const headers = {
        token: sessionStorage.getItem('token') ?? '',
        'Content-Type': 'application/json',
      };
      const list = await (await fetch(`${F}/equipments?search=Mixer`, { headers })).json();
      const item = list.data[0];
      const edit = await fetch(`${F}/equipments/${item.id}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ roomGrade: 'A', version: item.version, reason: 'Regraded' }),
      });
      return edit.status;
    });
    expect(status).toBe(200);

    await submitDrawer('Save');
    const reason = page.getByRole('dialog').filter({ hasText: 'Why are you changing' });
    await reason.getByLabel('Reason').fill('Asset register');
    await reason.getByRole('button', { name: 'Save' }).click();
    await drawer().getByText('Changed by someone else', { exact: true }).waitFor();
    await drawer().getByRole('button', { name: 'Reload current values' }).click();
    await drawer()
      .getByText(/Your changes to External ID are kept/)
      .waitFor();
    expect(await drawer().getByLabel('External ID', { exact: true }).inputValue()).toBe('EQ-7');
    await drawer().getByTitle('A', { exact: true }).waitFor();

    await submitDrawer('Save');
    await reason.getByLabel('Reason').fill('Asset register');
    await reason.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'EQ-7' }).waitFor();
    await page
      .getByRole('row', { name: /Mixer 1/ })
      .getByRole('cell', { name: 'A', exact: true })
      .waitFor();
  });
});
