import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { named } from './browser.ts';
import { openScreen } from './main-screens.ts';
import { choose, signInToFacility } from './ui.ts';

let app: AppUnderTest;
let page: Page;
// One page signed in for the file, each test on its screen mounted anew: nothing here tests the
// sign-in, and a page of each test's own (two loads, a sign-in, the facility's choice) was about
// a third of the file's CPU.
beforeAll(async () => {
  app = await startAppUnderTest();
  page = await app.open('/');
  await signInToFacility(page);
  // The menu follows the facility's permissions, which arrive after the shell renders.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Users', exact: true })
    .waitFor();
});
afterAll(async () => {
  await app?.close();
});

/** The administrator's page on a screen mounted anew, with nothing of the test before on it. */
async function openAsAdmin(path: string, heading: string): Promise<Page> {
  await openScreen(page, path, 'fresh');
  await page.getByRole('heading', { name: heading }).waitFor();
  return page;
}

describe('departments, operators and roles in the browser', () => {
  it('adds a department, renames it with a reason and finds it by search', async () => {
    const packaging = named('E2E Packaging');
    const packing = named('E2E Packing');
    const page = await openAsAdmin('/departments', 'Departments');
    await page.getByRole('button', { name: 'Add Department' }).click();
    const add = page.getByRole('dialog', { name: 'Add Department' });
    await add.getByLabel('Department Name').fill(packaging);
    await add.getByRole('button', { name: 'Create Department' }).click();
    // The rename must not start while the add dialog is still closing.
    await add.waitFor({ state: 'hidden' });
    const row = page.getByRole('row').filter({ hasText: packaging });
    await row.getByRole('button', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename Department' });
    await rename.getByLabel('Department Name').fill(packing);
    await rename.getByRole('button', { name: 'Save' }).click();
    await rename.getByText('A reason is required').waitFor();
    await rename.getByLabel('Reason').fill('Renamed by the site');
    await rename.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: packing, exact: true }).waitFor();
    await page.getByLabel('Search departments').fill('Packing');
    await page.getByLabel('Search departments').press('Enter');
    await page.getByRole('cell', { name: packing, exact: true }).waitFor();
  });

  it('adds an operator and archives it with a reason', async () => {
    const operatorId = named('E2E-OP-1');
    const page = await openAsAdmin('/operators', 'Operators');
    await page.getByRole('button', { name: 'Add Operator' }).click();
    const add = page.getByRole('dialog', { name: 'Add Operator' });
    await add.getByLabel('First Name').fill('Olga');
    await add.getByLabel('Last Name').fill('Operator');
    await add.getByLabel('Operator ID').fill(operatorId);
    await add.getByRole('button', { name: 'Create Operator' }).click();
    const row = page.getByRole('row').filter({ hasText: operatorId });
    await row.getByRole('button', { name: 'Archive' }).click();
    const archive = page.getByRole('dialog', { name: 'Archive Olga Operator' });
    await archive.getByLabel('Reason').fill('Left the site');
    await archive.getByRole('button', { name: 'Archive' }).click();
    await archive.waitFor({ state: 'hidden' });
    await page.getByRole('tab', { name: 'Archived Operators' }).click();
    await page.getByRole('cell', { name: operatorId, exact: true }).waitFor();
  });

  it('adds a role', async () => {
    const reviewer = named('E2E Reviewer');
    const page = await openAsAdmin('/roles', 'Roles');
    await page.getByRole('button', { name: 'Add Role' }).click();
    const add = page.getByRole('dialog', { name: 'Add Role' });
    await add.getByLabel('Role Name').fill(reviewer);
    // Permissions read as what they allow, with a line on each; never their ids.
    await add.getByRole('checkbox', { name: 'See products' }).check();
    await add.getByText('Open the list and the details of products.').waitFor();
    expect(await add.getByText('Product.Get').count()).toBe(0);
    await add.getByRole('button', { name: 'Create Role' }).click();
    await page.getByRole('cell', { name: reviewer, exact: true }).waitFor();
  });

  it('starts a role from a template and ticks a whole area or an action everywhere (issue 30)', async () => {
    const approver = named('E2E Approver');
    const page = await openAsAdmin('/roles', 'Roles');
    // The templates are roles of the facility, with the job each was made for.
    await page.getByRole('cell', { name: 'Quality assurance approver', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Add Role' }).click();
    const add = page.getByRole('dialog', { name: 'Add Role' });
    await add.getByLabel('Role Name').fill(approver);
    await choose(
      add.getByLabel('Start from template'),
      'Quality assurance approver: Reads everything and the audit trail, signs and sets the approval policies; edits no master data.',
    );
    expect(
      await add.getByRole('checkbox', { name: 'Approve records', exact: true }).isChecked(),
    ).toBe(true);
    expect(
      await add.getByRole('checkbox', { name: 'Change equipment', exact: true }).isChecked(),
    ).toBe(false);

    // Select-all on one area ticks its row, and only its row.
    await add.getByRole('checkbox', { name: 'All of Equipment', exact: true }).check();
    for (const name of [
      'See equipment',
      'Add equipment',
      'Change equipment',
      'Delete equipment',
      'Archive equipment',
    ])
      expect(await add.getByRole('checkbox', { name, exact: true }).isChecked(), name).toBe(true);
    expect(
      await add.getByRole('checkbox', { name: 'Change products', exact: true }).isChecked(),
    ).toBe(false);
    // One action in every area.
    await add.getByRole('checkbox', { name: 'Change in every area' }).check();
    expect(
      await add.getByRole('checkbox', { name: 'Change products', exact: true }).isChecked(),
    ).toBe(true);
    await add.getByRole('checkbox', { name: 'Change in every area' }).uncheck();
    expect(
      await add.getByRole('checkbox', { name: 'Change equipment', exact: true }).isChecked(),
    ).toBe(false);
    await add.getByRole('button', { name: 'Create Role' }).click();
    await page.getByRole('cell', { name: approver, exact: true }).waitFor();
    const [role] = await app.server.db.query<{
      permissions: Record<string, Record<string, boolean>>;
    }>('select permissions from roles where name = $1', [approver]);
    expect(role?.permissions.Equipment).toMatchObject({ Get: true, Add: true, Modify: false });
    expect(role?.permissions.ApprovalPolicy).toMatchObject({ Sign: true });
  });
});
