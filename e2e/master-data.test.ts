import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppUnderTest } from './app-under-test.ts';
import { choose, discardDrawer, openDrawer, openMasterData, startSignedIn } from './ui.ts';
import { allowRefusedRequest } from './browser-errors.ts';

let app: AppUnderTest;
let page: Page;
beforeAll(async () => {
  ({ app, page } = await startSignedIn());
});
afterAll(async () => {
  await app?.close();
});

async function fill(label: string, value: string): Promise<void> {
  await openDrawer(page).getByLabel(label, { exact: true }).fill(value);
}

async function submitDrawer(button: string): Promise<void> {
  await openDrawer(page).getByRole('button', { name: button }).click();
}

async function addActive(name: string, pdeUg: string): Promise<void> {
  await page.getByRole('button', { name: 'Add active' }).first().click();
  await fill('Name', name);
  await fill('PDE/ADE', pdeUg);
  await choose(openDrawer(page).getByLabel('PDE/ADE unit', { exact: true }), 'µg');
  await submitDrawer('Add active');
  await page.getByRole('cell', { name, exact: true }).waitFor();
}

async function addProduct(name: string, active: string, ldd: string, mbs: string): Promise<void> {
  await page.getByRole('button', { name: 'Add product' }).first().click();
  await fill('Name', name);
  await fill('Largest daily dose', ldd);
  await fill('Minimum batch size', mbs);
  await openDrawer(page).getByRole('button', { name: 'Add actives' }).click();
  await choose(openDrawer(page).getByLabel('Active 1', { exact: true }), active);
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
    await openMasterData(page, 'Actives');
    await page.getByText('No actives yet').waitFor();
    await openMacMatrix();
    await page
      .getByText('Limits appear once products with actives share equipment through a production.')
      .waitFor();
  });

  it('creates actives, products, equipment and a production, and the pairs appear', async () => {
    await openMasterData(page, 'Actives');
    await addActive('Drug X', '1');
    await addActive('Drug Y', '2');

    await openMasterData(page, 'Products');
    // A health-based limit PDE × MBS / LDD: 1 ug × 50 kg / 200 mg = 250 mg for A → B.
    await addProduct('Tablet A', 'Drug X', '400', '100');
    await addProduct('Tablet B', 'Drug Y', '200', '50');

    await openMasterData(page, 'Equipment');
    await page.getByText('No equipment yet').waitFor();
    await page.getByRole('button', { name: 'Add equipment' }).first().click();
    await fill('Name', 'Mixer 1');
    await fill('Surface area', '10');
    await choose(openDrawer(page).getByLabel('Surface area unit', { exact: true }), 'm²');
    await submitDrawer('Add equipment');
    await page.getByRole('cell', { name: '10 m²' }).waitFor();

    // A duplicate name comes back from the server onto the Name field.
    allowRefusedRequest(409, /\/facilities\/\d+\/equipments/);
    await page.getByRole('button', { name: 'Add equipment' }).first().click();
    await fill('Name', 'mixer 1');
    await fill('Surface area', '5');
    await submitDrawer('Add equipment');
    await openDrawer(page).getByText("Equipment with name 'mixer 1' already exists").waitFor();
    // The typed entries are unsaved: Cancel asks before discarding them.
    await discardDrawer(page);

    await openMasterData(page, 'Productions');
    await page.getByRole('button', { name: 'Add production' }).first().click();
    await fill('Name', 'Line 1');
    await choose(openDrawer(page).getByLabel('Equipment', { exact: true }), 'Mixer 1');
    await choose(openDrawer(page).getByLabel('Products', { exact: true }), 'Tablet A', 'Tablet B');
    await submitDrawer('Add production');
    // References are listed by name.
    await page.getByRole('cell', { name: 'Tablet A, Tablet B' }).waitFor();

    await openMacMatrix();
    await page.getByText('2 pairs').waitFor();
    await page.getByRole('button', { name: '250 mg' }).waitFor();
    // B → A: 2 ug × 100 kg / 400 mg = 500 mg.
    await page.getByRole('button', { name: '500 mg' }).waitFor();
    // SAL = MACO / area: 250 mg / 100000 sqcm.
    await page.getByRole('button', { name: '0.0025 mg/cm²' }).waitFor();

    await page.getByRole('button', { name: '250 mg' }).click();
    await openDrawer(page).getByText('Tablet A → Tablet B').waitFor();
    await openDrawer(page)
      .getByText(/Health-based \(PDE\/ADE\) \(active Drug X\) governs/)
      .waitFor();
    await openDrawer(page).getByText('250 mg / 100,000 cm² = 0.0025 mg/cm²').waitFor();
    // The server's derivation from the inputs, criterion by criterion.
    await openDrawer(page)
      .getByRole('button', { name: /Health-based/ })
      .click();
    await openDrawer(page)
      .getByText(/MACO = HBEL/)
      .waitFor();
    await page.keyboard.press('Escape');
  });

  it('recomputes the SAL when the equipment surface area changes', async () => {
    await openMasterData(page, 'Equipment');
    await page
      .getByRole('row', { name: /Mixer 1/ })
      .getByRole('button', { name: 'Edit' })
      .click();
    await fill('Surface area', '20');
    await submitDrawer('Save');
    const reason = page.getByRole('dialog').filter({ hasText: 'Why are you changing' });
    await reason.getByLabel('Reason').fill('Measured again');
    await reason.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: '20 m²' }).waitFor();

    await openMacMatrix();
    await page.getByRole('button', { name: '0.00125 mg/cm²' }).waitFor();
    expect(await page.getByRole('button', { name: '0.0025 mg/cm²' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: '250 mg' }).count()).toBe(1);
  });
  it('keeps what the user typed through a version conflict', async () => {
    allowRefusedRequest(409, /\/facilities\/\d+\/equipments\/\d+/);
    await openMasterData(page, 'Equipment');
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
    await openDrawer(page).getByText('Changed by someone else', { exact: true }).waitFor();
    await openDrawer(page).getByRole('button', { name: 'Reload current values' }).click();
    await openDrawer(page)
      .getByText(/Your changes to External ID are kept/)
      .waitFor();
    expect(await openDrawer(page).getByLabel('External ID', { exact: true }).inputValue()).toBe(
      'EQ-7',
    );
    await openDrawer(page).getByTitle('A', { exact: true }).waitFor();

    await submitDrawer('Save');
    await reason.getByLabel('Reason').fill('Asset register');
    await reason.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'EQ-7' }).waitFor();
    await page
      .getByRole('row', { name: /Mixer 1/ })
      .getByRole('cell', { name: 'A', exact: true })
      .waitFor();
  });
  it('shows where an active is used and which limits change before it is archived', async () => {
    await openMasterData(page, 'Actives');
    await page
      .getByRole('row', { name: /Drug X/ })
      .getByRole('button', { name: 'Archive' })
      .click();
    const dialog = page.getByRole('dialog').filter({ hasText: "Archive active 'Drug X'" });
    const impact = dialog.getByRole('region', { name: 'Impact on the limits' });
    await impact.getByText("Used in product 'Tablet A'").waitFor();
    // The what-if engine in the browser: A loses its only active, so A → B has no limit.
    await impact.getByText('Tablet A → Tablet B: MACO 250 mg → none').waitFor();
    await dialog.getByLabel('Reason').fill('Drug X withdrawn; Tablet A has no limit as shown');
    const archive = dialog.getByRole('button', { name: 'Archive', exact: true });
    expect(await archive.isDisabled()).toBe(true);
    await impact.getByRole('checkbox').check();
    await archive.click();
    await page.getByText("Active 'Drug X' archived").waitFor();
    expect(await page.getByRole('cell', { name: 'Drug X', exact: true }).count()).toBe(0);
  });
});
