import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { browserToken, confirmWithReason, createViaApi, facilityApi, openSignedIn } from './ui.ts';
import { seedTwoProducts } from './two-products.ts';
import { adminEditor, putInForce } from '#server/test/policy-in-force.ts';
import { allowRefusedRequest } from './browser-errors.ts';

let app: AppUnderTest;
let page: Page;
let token: string;
let F: string;

interface Pair {
  previous: string;
  next: string;
  governing: string;
  maco: { value: number };
}

const create = (path: string, body: unknown) => createViaApi(app, token, `${F}/${path}`, body);

async function pairAB(): Promise<Pair> {
  const res = await app.server.request<{ pairs: Pair[] }>('GET', `${F}/mac-matrix`, { token });
  expect(res.status).toBe(200);
  return res.body.pairs.find((p) => p.previous === 'A' && p.next === 'B')!;
}

/** The Chemical policy: the draft the form edits, or with `inForce` the plain read. */
async function chemicalPolicy(read: 'draft' | 'inForce' = 'draft') {
  const res = await app.server.request<{
    id: number;
    version: number;
    status: string;
    versionNumber: number;
    inForceVersionNumber: number | null;
    draftVersionNumber: number | null;
    policy: { useARL: boolean; globalRecoveryPercentage: number };
  }>('GET', `${F}/cleaning_limit_policies/Chemical${read === 'draft' ? '?version=draft' : ''}`, {
    token,
  });
  return res.body;
}

beforeAll(async () => {
  app = await startAppUnderTest();
  token = await app.server.login();
  F = (await facilityApi(app)).path;
  // The facility of server/modules/limits/limits.test.ts: A → B is governed by the general limit.
  await seedTwoProducts(create, { oneItem: true });

  page = await openSignedIn(app);
  // One session per user: the browser's sign-in ended the test's own, so use the browser's.
  token = await browserToken(page);
});
afterAll(async () => {
  await app?.close();
});

async function saveWithReason(button: string, reason: string): Promise<void> {
  await page.getByRole('button', { name: button }).click();
  await confirmWithReason(page, reason);
}

describe('cleaning limit policies', () => {
  it('turning off the general limit changes the governing criterion of the MAC matrix', async () => {
    expect((await pairAB()).governing).toBe('arl');

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Cleaning limit policies' })
      .click();
    await page.getByRole('heading', { name: 'Cleaning limit policies' }).waitFor();
    // The defaults are the facility's version 1, in force from its creation.
    await page.getByText('Version 1', { exact: true }).waitFor();

    const arl = page.getByRole('switch', { name: 'Use general limit (ARL)' });
    expect(await arl.getAttribute('aria-checked')).toBe('true');
    await arl.click();
    await saveWithReason('Save Chemical policy', 'General limit not applied to this site');
    await page.getByText('Version 2', { exact: true }).waitFor();

    const policy = await chemicalPolicy();
    expect(policy.version).toBe(2);
    expect(policy.status).toBe('BeingBuilt');
    expect(policy.policy.useARL).toBe(false);
    await page.getByText('Draft version 2 — not in force').waitFor();
    // The plain read answers the version in force, which the limits use, not the draft.
    expect(await chemicalPolicy('inForce')).toMatchObject({
      status: 'Approved',
      versionNumber: 1,
      inForceVersionNumber: 1,
      draftVersionNumber: 2,
      policy: { useARL: true },
    });
    // Being built, the change moves no limit; approved, it does.
    expect((await pairAB()).governing).toBe('arl');
    await putInForce(app.server, F, adminEditor(token), 'CleaningLimitPolicy', policy.id);
    // Without the general limit (1,000 mg) the dose criterion (2,500 mg) governs.
    const pair = await pairAB();
    expect(pair.governing).toBe('dose');
    expect(pair.maco.value).toBeCloseTo(2_500, 6);
  });

  it("shows the server's message on an out-of-range recovery and saves nothing", async () => {
    allowRefusedRequest(422, /\/facilities\/\d+\/cleaning_limit_policies/);
    await page.getByRole('spinbutton', { name: 'Global recovery' }).fill('120');
    await saveWithReason('Save Chemical policy', 'Recovery from the swab study');
    await page.getByText('must be at most 100').waitFor();
    // The message is under the recovery field itself.
    const item = page.locator('.ant-form-item', {
      has: page.getByRole('spinbutton', { name: 'Global recovery' }),
    });
    await item.getByText('must be at most 100').waitFor();

    const policy = await chemicalPolicy();
    expect(policy.version).toBe(2);
    expect(policy.policy.globalRecoveryPercentage).toBe(100);
  });

  it("after someone else's change, reloads the current values and keeps the user's edit", async () => {
    allowRefusedRequest(409, /\/facilities\/\d+\/cleaning_limit_policies/);
    // A fresh form at version 2.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Home' })
      .click();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Cleaning limit policies' })
      .click();
    await page.getByText('Version 2', { exact: true }).waitFor();

    const other = await app.server.request('POST', `${F}/cleaning_limit_policies`, {
      token,
      body: { residueType: 'Chemical', useLd50: true, version: 2, reason: 'LD50 route added' },
    });
    expect(other.status).toBe(200);

    await page.getByRole('spinbutton', { name: 'Global recovery' }).fill('90');
    await saveWithReason('Save Chemical policy', 'Recovery from the swab study');
    await page.getByText('Changed by someone else', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Reload current values' }).click();
    await page.getByText('Version 3', { exact: true }).waitFor();
    expect(await page.getByRole('spinbutton', { name: 'Global recovery' }).inputValue()).toBe('90');
    expect(await page.getByRole('switch', { name: 'Use LD50' }).getAttribute('aria-checked')).toBe(
      'true',
    );

    await saveWithReason('Save Chemical policy', 'Recovery from the swab study');
    // An edit of a version being built keeps its number (3); the tag shows the record's number.
    await page.getByText('Chemical policy saved.').first().waitFor();
    const policy = await chemicalPolicy();
    expect(policy.policy.globalRecoveryPercentage).toBe(90);
    expect(policy.policy.useARL).toBe(false);
  });

  it('changes the microbial cleaning limit policy on its own tab', async () => {
    await page.getByRole('tab', { name: 'Microbial' }).click();
    await page.getByText('Version 1', { exact: true }).waitFor();
    await page.getByRole('spinbutton', { name: 'Rinse limit' }).fill('10');
    await saveWithReason('Save microbial cleaning limit policy', 'WFI rinse');
    await page.getByText('Version 2', { exact: true }).waitFor();
    await page.getByText('Draft version 2 — not in force').waitFor();
    const read = (query: string) =>
      app.server.request<{ policy: { rinseLimit: number }; versionNumber: number }>(
        'GET',
        `${F}/microbial-cleaning-limit-policies${query}`,
        { token },
      );
    expect((await read('?version=draft')).body).toMatchObject({
      versionNumber: 2,
      policy: { rinseLimit: 10 },
    });
    // Runs judge with the version in force until the draft is approved.
    expect((await read('')).body.versionNumber).toBe(1);
  });
});
