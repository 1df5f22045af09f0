import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdfText } from '#server/test/read-pdf-text.ts';
import { buildMacFacility } from '#server/test/mac-test-data.ts';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { choose, facilityApi, openDrawer, openModal, signInToFacility } from './ui.ts';

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
  page = await app.open('/');
  await signInToFacility(page);
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

  it('offers the annual summary for the twelve months ending today when there is none yet', async () => {
    await page.keyboard.press('Escape');
    await openDrawer(page).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Annual summary', exact: true }).click();
    const dialog = openModal(page);
    const today = new Date().toISOString().slice(0, 10);
    const yearAgo = new Date(`${today}T00:00:00Z`);
    yearAgo.setUTCFullYear(yearAgo.getUTCFullYear() - 1);
    yearAgo.setUTCDate(yearAgo.getUTCDate() + 1);
    expect(await dialog.getByLabel('End').inputValue()).toBe(today);
    expect(await dialog.getByLabel('Start').inputValue()).toBe(yearAgo.toISOString().slice(0, 10));
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });
});
