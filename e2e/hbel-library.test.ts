import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { ADMIN } from '#server/test/test-server.ts';
import type { AppUnderTest } from './app-under-test.ts';
import {
  browserToken,
  choose,
  createViaApi,
  facilityApi,
  openDrawer,
  openMasterData,
  openModal,
  signInDialog,
  startSignedIn,
} from './ui.ts';

/*
 * Issue 32, the plan's HBEL library on screen: a monograph created with its PDE derived,
 * submitted for signature, approved by the toxicologist (through the API), then linked to an
 * active of the facility with a site override that is signed; the active's page shows the
 * lineage and the library where the monograph is used; a new version is made beside the one in
 * force.
 */

let app: AppUnderTest;
let page: Page;
let activeId: number;
let facilityId: number;
let F: string;

beforeAll(async () => {
  ({ app, page } = await startSignedIn());
  ({ id: facilityId, path: F } = await facilityApi(app));
  activeId = await createViaApi(app, await browserToken(page), `${F}/apis`, { name: 'Metformin' });
});
afterAll(async () => {
  await app?.close();
});

it('creates a monograph, links an active to it with a signed override, and shows the lineage', async () => {
  await openMasterData(page, 'HBEL library');
  await page.getByRole('button', { name: 'New monograph' }).click();
  const form = openModal(page);
  await form.getByLabel('Substance').fill('Metformin');
  await form.getByLabel('Dose', { exact: true }).fill('250');
  await form.getByLabel('Species', { exact: true }).fill('rat');
  await form.getByLabel('Route', { exact: true }).fill('oral');
  await form.getByLabel('Study reference').fill('13-week oral gavage study, report TX-0042');
  await form.getByLabel('F3 (study duration)').fill('5');
  await form.getByRole('button', { name: 'Save' }).click();
  // 250 mg/kg/day × 50 kg / (5 × 10 × 5 × 1 × 1) = 50 mg/day.
  const drawer = openDrawer(page);
  await drawer.getByRole('heading', { name: /HBEL-\d{4} Metformin/ }).waitFor();
  await drawer
    .getByText('PDE = PoD × BW / (F1 × F2 × F3 × F4 × F5 × MF × PK)', { exact: false })
    .first()
    .waitFor();
  await drawer.getByText('50 mg', { exact: true }).first().waitFor();

  // Submitted here; approved by the toxicologist's step.
  await drawer.getByRole('button', { name: 'Submit' }).click();
  await signInDialog(page, 'submit', ADMIN.password);
  await expect
    .poll(() => drawer.getByTestId('record-status').first().textContent())
    .toBe('Being approved');
  const approver = await buildUser(app.server.db, {
    facilityIds: [facilityId],
    permissions: permissionsWith({ ApprovalPolicy: ['Get', 'Sign'], API: ['Get'] }),
  });
  const [monograph] = await app.server.db.query<{ id: number }>(
    `select id from hbel_monographs where substance = 'Metformin'`,
  );
  const approved = await app.server.request('POST', `${F}/signatures`, {
    token: await app.server.login(approver.username, approver.password),
    body: {
      documentType: 'HbelMonograph',
      documentId: monograph!.id,
      action: 'Approve',
      password: approver.password,
    },
  });
  expect(approved.status).toBe(200);

  // The active's page: link it with a signed site override.
  await page.goto(new URL(`/master-data/apis/${activeId}`, page.url()).toString());
  await page.getByRole('heading', { name: 'Metformin', exact: true }).waitFor();
  await page.getByRole('tab', { name: 'HBEL library' }).click();
  await page.getByRole('button', { name: 'Link to the library' }).click();
  const link = openModal(page);
  await choose(
    link.getByLabel('Library entry'),
    `HBEL-${String(monograph!.id).padStart(4, '0')} Metformin, PDE 50 mg`,
  );
  await link.getByLabel('Override the PDE at this site').check();
  await link.getByLabel('Site PDE (mg/day)').fill('20');
  await link
    .getByLabel('Justification')
    .fill('Paediatric products at this site: 20 kg body weight');
  await link.getByLabel('Password').fill(ADMIN.password);
  await link.getByLabel('Reason').fill('Use the library PDE');
  await link.getByRole('button', { name: 'Sign and save' }).click();
  await expect.poll(() => page.getByRole('dialog').count(), { timeout: 30_000 }).toBe(0);
  const lineage = page.getByRole('tabpanel');
  await lineage.getByText('Paediatric products at this site: 20 kg body weight').waitFor();
  await lineage.getByText(/Approve site PDE override/).waitFor();
  await lineage.getByText('20 mg', { exact: true }).first().waitFor();

  // The library says where it is used.
  await openMasterData(page, 'HBEL library');
  await page.getByRole('cell', { name: 'Metformin' }).click();
  await openDrawer(page).getByRole('tab', { name: 'Where used' }).click();
  await openDrawer(page)
    .getByText(/site override 20 mg/)
    .waitFor();

  // A new version, with its reason: the approved one stays in force until it is signed.
  await openDrawer(page).getByRole('button', { name: 'New version' }).click();
  const next = openModal(page);
  await expect.poll(() => next.getByLabel('Substance').inputValue()).toBe('Metformin');
  await next.getByLabel('F3 (study duration)').fill('10');
  await next.getByLabel('Reason').fill('Shorter study: F3 10');
  await next.getByRole('button', { name: 'Save', exact: true }).click();
  // The drawer stays open under the dialog: only the dialog closes.
  await expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
  await openDrawer(page).getByRole('tab', { name: 'Versions' }).click();
  // 250 × 50 / (5 × 10 × 10) = 25 mg/day.
  await openDrawer(page).getByText('PDE 25 mg').waitFor();
  await openDrawer(page).getByText('PDE 50 mg').waitFor();
  await openDrawer(page).getByRole('tab', { name: 'In force (version 1)' }).waitFor();
});
