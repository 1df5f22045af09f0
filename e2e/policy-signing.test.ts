import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { ADMIN } from '#server/test/test-server.ts';
import { signIn, type AppUnderTest } from './app-under-test.ts';
import {
  browserToken,
  confirmWithReason,
  facilityApi,
  openDrawer,
  startSignedIn,
  signInDialog,
  openFromMyApprovals,
} from './ui.ts';

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
  await signInDialog(page, 'submit', ADMIN.password);
  await expect.poll(() => tag.textContent()).toBe('Being approved');
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

it('My approvals opens a waiting limit policy on its residue type’s tab', async () => {
  const facility = await facilityApi(app);
  // The browser's session: another sign-in of the administrator would end it, and its next poll
  // would be refused.
  const token = await browserToken(page);
  const call = (method: string, path: string, body: unknown) =>
    app.server.request<Record<string, any>>(method, `${facility.path}${path}`, { token, body }); // eslint-disable-line @typescript-eslint/no-explicit-any -- checked below
  const current = await app.server.request<{ id: number; version: number }>(
    'GET',
    `${facility.path}/cleaning_limit_policies/Detergent`,
    { token },
  );
  const saved = await call('POST', '/cleaning_limit_policies', {
    residueType: 'Detergent',
    safetyFactor: 500,
    version: current.body.version,
    reason: 'Detergent safety factor reviewed',
  });
  expect(saved.status).toBe(200);
  const submitted = await call('POST', '/signatures', {
    documentType: 'CleaningLimitPolicy',
    documentId: current.body.id,
    action: 'Submit',
    password: ADMIN.password,
  });
  expect(submitted.status).toBe(200);

  const approver = await buildUser(app.server.db, {
    facilityIds: [facility.id],
    permissions: permissionsWith({ ApprovalPolicy: ['Get', 'Sign'], CleaningPolicy: ['Get'] }),
  });
  const second = await app.open('/');
  await signIn(second, approver.username, approver.password);
  await second.getByRole('button', { name: 'Logout' }).waitFor();
  await openFromMyApprovals(second, 'Detergent cleaning limit policy');
  const tab = second.getByRole('tab', { name: 'Detergent', selected: true });
  await tab.waitFor();
  await expect
    .poll(() => second.getByTestId('record-status').first().textContent())
    .toBe('Being approved');
});
