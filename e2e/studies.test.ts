import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { adminActor } from '#server/test/factories/admin.ts';
import { buildSamplingLocations } from '#server/test/factories/sampling.ts';
import { ADMIN } from '#server/test/test-server.ts';
import { signIn, startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import {
  choose,
  facilityApi,
  facilityRecords,
  facilityScope,
  openDrawer,
  openFromMyApprovals,
  openModal,
  openSignedIn,
  signInDialog,
} from './ui.ts';

let app: AppUnderTest;
// Unique per attempt: a retry runs on the same database.
const stamp = Date.now();
const protocolTitle = `Granulator cleaning validation ${stamp}`;
const equipmentName = `Granulator ${stamp}`;
const methodName = `TOC swab method ${stamp}`;

/** A granulator with one swab location, and a method to analyse its swabs with. */
async function seedFacility(): Promise<void> {
  const facility = await facilityApi(app);
  const create = await facilityRecords(app, facility.path);
  const granulator = await create('equipments', {
    name: equipmentName,
    surfaceArea: { value: 8, unit: 'sqm' },
  });
  await create('analytical-method', { name: methodName, testType: 'TOC' });
  await buildSamplingLocations(
    app.server.db,
    facilityScope(facility.path),
    granulator,
    [{ name: 'Impeller blade', sampleType: 'swab' }],
    { actor: await adminActor(app.server.db), reason: 'Worst-case spot' },
  );
}

/** Signs the action in the sign dialog with the signer's password. */
async function sign(page: Page, action: string, password: string): Promise<void> {
  await openDrawer(page).getByRole('button', { name: action, exact: true }).click();
  await signInDialog(page, action, password);
  await expect.poll(() => page.getByRole('dialog').count(), { timeout: 10_000 }).toBe(1);
}

const statusTag = (page: Page) => openDrawer(page).getByTestId('record-status');

beforeAll(async () => {
  app = await startAppUnderTest();
  await seedFacility();
});
afterAll(async () => {
  await app?.close();
});

it('writes a protocol with its sampling plan, approves it by signing, starts a study from it and adds its first run', async () => {
  const facility = await facilityApi(app);
  const approver = await buildUser(app.server.db, {
    facilityIds: [facility.id],
    permissions: permissionsWith({ ApprovalPolicy: ['Get', 'Sign'], QualificationTask: ['Get'] }),
  });
  const page = await openSignedIn(app);

  // The protocol, written on the declared form; the location is one of the chosen equipment's.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Protocols' })
    .click();
  await page.getByRole('heading', { name: 'Protocols', exact: true }).waitFor();
  await page.getByRole('button', { name: 'Add protocol' }).first().click();
  const form = openDrawer(page);
  await form.getByLabel('Protocol number').fill(`CVP-${stamp}`);
  await form.getByLabel('Title', { exact: true }).fill(protocolTitle);
  await choose(form.getByLabel('Equipment', { exact: true }), equipmentName);
  await form.getByRole('button', { name: 'Add sampling plan' }).click();
  await choose(form.getByLabel('Sampling location 1'), `${equipmentName} · Impeller blade (Swab)`);
  // The row's sample type follows the location's.
  const sampleType = form
    .getByLabel('Sample type 1')
    .locator(
      "xpath=ancestor::div[contains(concat(' ', normalize-space(@class), ' '), ' ant-select ')][1]",
    );
  await sampleType.getByText('Swab', { exact: true }).waitFor();
  await choose(form.getByLabel('Analytical method 1'), methodName);
  await page.locator('.ant-drawer-open').getByRole('button', { name: 'Add protocol' }).click();
  const row = page.getByRole('row', { name: new RegExp(protocolTitle) });
  await row.waitFor();

  // Submitted by the administrator, approved by another signer found under My approvals.
  await row.getByRole('button', { name: /^Open protocol/ }).click();
  await expect.poll(() => statusTag(page).textContent()).toBe('Being Built');
  // The plan reads as names: the location among the protocol's equipment's, the method.
  const plan = openDrawer(page).locator('.ant-descriptions-row', { hasText: 'Sampling plan' });
  await expect.poll(() => plan.textContent()).toContain(`${equipmentName} · Impeller blade`);
  await expect.poll(() => plan.textContent()).toContain(methodName);
  await sign(page, 'Submit', ADMIN.password);
  await expect.poll(() => statusTag(page).textContent()).toBe('Being approved');

  const second = await app.open('/');
  await signIn(second, approver.username, approver.password);
  await second.getByRole('button', { name: 'Logout' }).waitFor();
  await openFromMyApprovals(second, new RegExp(protocolTitle));
  await second.waitForURL(/\/protocols\?record=\d+/);
  await expect.poll(() => statusTag(second).textContent()).toBe('Being approved');
  await sign(second, 'Approve', approver.password);
  await expect.poll(() => statusTag(second).textContent()).toBe('Active');

  // A study from the approved protocol: On Going, no passing run of the three it needs.
  await page.goto('/studies');
  await page.getByRole('heading', { name: 'Studies', exact: true }).waitFor();
  await page.getByText('No studies yet').waitFor();
  await page.getByRole('button', { name: 'New study' }).first().click();
  const modal = openModal(page);
  await modal.getByLabel('Title').fill('Granulator PQ');
  await choose(modal.getByLabel('Study type'), 'Validation');
  await choose(modal.getByLabel('Protocol'), `CVP-${stamp} ${protocolTitle}`);
  await modal.getByRole('button', { name: 'Create study' }).click();
  await page.waitForURL(/\/studies\/\d+$/);
  await page.getByRole('heading', { name: /ST-\d+ Granulator PQ/ }).waitFor();
  await expect.poll(() => page.getByTestId('study-outcome').textContent()).toBe('On Going');
  await expect.poll(() => page.getByTestId('consecutive-passes').textContent()).toContain('0 of 3');
  await page.getByText('No runs yet.', { exact: false }).waitFor();

  // Run 1 is added Not started; the study stays On Going.
  await page.getByRole('button', { name: 'Add run' }).click();
  const run = page.getByRole('table', { name: 'Runs' }).getByRole('row', { name: /Run 1/ });
  await expect.poll(() => run.textContent()).toContain('Not started');
  expect(await run.getByRole('link', { name: 'Run 1' }).getAttribute('href')).toMatch(
    /^\/runs\/\d+$/,
  );

  // The list shows it with its outcome and passes.
  await page.getByRole('link', { name: '← Studies' }).click();
  const listed = page.getByRole('row', { name: /Granulator PQ/ });
  await expect.poll(() => listed.textContent()).toContain('0 of 3');
  await expect.poll(() => listed.textContent()).toContain('On Going');
});
