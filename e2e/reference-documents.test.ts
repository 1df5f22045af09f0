import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppUnderTest } from './app-under-test.ts';
import {
  browserToken,
  createViaApi,
  facilityApi,
  openDrawer,
  openMasterData,
  startSignedIn,
} from './ui.ts';
import { allowRefusedRequest } from './browser-errors.ts';

let app: AppUnderTest;
let page: Page;
beforeAll(async () => {
  ({ app, page } = await startSignedIn());
});
afterAll(async () => {
  await app?.close();
});

/**
 * An analytical method written through the API with the browser's own session (a sign-in of
 * the API would end it), so the test needs no other screen.
 */
async function createMethod(name: string): Promise<void> {
  const { path } = await facilityApi(app);
  await createViaApi(app, await browserToken(page), `${path}/analytical-method`, {
    name,
    testType: 'TOC',
  });
}

describe('reference document of an analytical method', () => {
  it('uploads a PDF from the form and downloads the same bytes from the list', async () => {
    // A PNG named .pdf is refused.
    allowRefusedRequest(422, /\/analytical-method\/\d+/);
    const name = `TOC swab method ${Date.now()}`;
    await createMethod(name);
    await openMasterData(page, 'Analytical methods');
    const row = page.getByRole('row').filter({ hasText: name });
    await row.waitFor();
    await row.getByRole('button', { name: 'Edit' }).click();

    const fileInput = openDrawer(page).locator('input[type=file]');
    const reason = page.getByRole('dialog').filter({ hasText: 'Why are you changing' });
    // A PNG named .pdf is refused, and the message shows under the file picker.
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
    await fileInput.setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: png });
    await openDrawer(page).getByText('scan.pdf').waitFor();
    await openDrawer(page).getByRole('button', { name: 'Save' }).click();
    await reason.getByLabel('Reason').fill('Method validated');
    await reason.getByRole('button', { name: 'Save' }).click();
    await openDrawer(page)
      .getByText("The content of 'scan.pdf' is not a pdf file", { exact: false })
      .waitFor();

    const pdf = Buffer.from('%PDF-1.4\n% TOC method, swab recovery 92 %\n%%EOF\n');
    await openDrawer(page)
      .locator('input[type=file]')
      .setInputFiles({ name: 'TOC method.pdf', mimeType: 'application/pdf', buffer: pdf });
    await openDrawer(page).getByText('TOC method.pdf').waitFor();
    await openDrawer(page).getByRole('button', { name: 'Save' }).click();
    await reason.getByText('Changed: Reference Document').waitFor();
    await reason.getByLabel('Reason').fill('Method validated');
    await reason.getByRole('button', { name: 'Save' }).click();

    const link = row.getByRole('link', { name: 'TOC method.pdf' });
    await link.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('TOC method.pdf');
    const saved = await readFile((await download.path())!);
    expect(saved.equals(pdf)).toBe(true);
  });

  it('adds an active with its reference document in one step', async () => {
    const name = `Active with dossier ${Date.now()}`;
    await openMasterData(page, 'Actives');
    await page.getByRole('button', { name: 'Add active' }).first().click();
    await openDrawer(page).getByLabel('Name', { exact: true }).fill(name);
    const rtf = Buffer.from('{\\rtf1\\ansi PDE assessment}');
    await openDrawer(page)
      .locator('input[type=file]')
      .setInputFiles({ name: 'PDE assessment.rtf', mimeType: 'application/rtf', buffer: rtf });
    await openDrawer(page).getByText('PDE assessment.rtf').waitFor();
    await openDrawer(page).getByRole('button', { name: 'Add active' }).click();
    const row = page.getByRole('row').filter({ hasText: name });
    await row.getByRole('link', { name: 'PDE assessment.rtf' }).waitFor();
  });
});
