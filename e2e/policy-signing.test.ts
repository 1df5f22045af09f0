import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN } from '../server/test/test-server.ts';
import type { AppUnderTest } from './app-under-test.ts';
import { confirmWithReason, openDrawer, openModal, startSignedIn } from './ui.ts';

let app: AppUnderTest;
let page: Page;
beforeAll(async () => {
  ({ app, page } = await startSignedIn());
});
afterAll(async () => {
  await app?.close();
});

it('a limit policy shows its status, starts a new version, is submitted, locked, and its history compares versions', async () => {
  await page.goto('/policies');
  const tag = page.getByTestId('record-status').first();
  await expect.poll(() => tag.textContent()).toBe('Active');
  await page.getByText('Saving starts version 2 in Being Built').waitFor();
  await page.getByRole('spinbutton', { name: 'Global recovery' }).fill('90');
  await page.getByRole('button', { name: 'Save Chemical policy' }).click();
  await confirmWithReason(page, 'Recovery from the swab study');
  await expect.poll(() => tag.textContent()).toBe('Being Built');

  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  const dialog = openModal(page);
  await dialog.getByLabel('Password').fill(ADMIN.password);
  await dialog.getByRole('button', { name: 'Sign and submit' }).click();
  await expect.poll(() => tag.textContent()).toBe('BeingApproved');
  await page.getByText('Locked for editing').waitFor();
  expect(await page.getByRole('button', { name: 'Save Chemical policy' }).isDisabled()).toBe(true);
  const signatures = page.getByRole('region', { name: 'Signatures' });
  await expect.poll(() => signatures.locator('tbody tr.ant-table-row').count()).toBe(1);

  await page.getByRole('button', { name: 'Version history' }).click();
  const history = openDrawer(page);
  const versions = history.locator('tbody tr.ant-table-row');
  await expect.poll(() => versions.count()).toBeGreaterThan(1);
  await versions.first().getByRole('checkbox').check();
  await versions.last().getByRole('checkbox').check();
  const row = history
    .getByRole('region', { name: 'Differences' })
    .locator('tr', { hasText: 'globalRecoveryPercentage' });
  await expect.poll(() => row.textContent()).toContain('90');
});
