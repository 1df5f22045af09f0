import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { allowRefusedRequest } from './browser-errors.ts';
import { seedTwoProducts } from './two-products.ts';
import { browserToken, choose, createViaApi, facilityApi, openDrawer, openSignedIn } from './ui.ts';
import { adminEditor, putInForce } from '#server/test/policy-in-force.ts';
import { setFacilityKind } from '#server/test/test-server.ts';

/*
 * The MAC formulas screen beside the cleaning limit policies. A → B of the two-product facility:
 * Alpha (TDD 10 mg/day) before B (MBS 100 kg, MDD 400 mg), governed by the general limit
 * (1,000 mg); `TDD * MBS / (100000 * MDD)` gives 10 × 1e8 / (1e5 × 400) = 25 mg.
 */

let app: AppUnderTest;
let page: Page;
let token: string;
let F: string;

const FORMULA = 'TDD * MBS / (100000 * MDD)';

async function pairAB() {
  const res = await app.server.request<{
    pairs: { previous: string; next: string; governing: string; maco: { value: number } }[];
  }>('GET', `${F}/mac-matrix`, { token });
  expect(res.status).toBe(200);
  return res.body.pairs.find((p) => p.previous === 'A' && p.next === 'B')!;
}

beforeAll(async () => {
  app = await startAppUnderTest();
  token = await app.server.login();
  F = (await facilityApi(app)).path;
  // The lite tier approves a formula directly; with change control (the full tier) it goes
  // through a change assessment (server/modules/limits/mac-formula-change.test.ts).
  await setFacilityKind(app.server, 0, { tier: 'lite' });
  await seedTwoProducts((path, body) => createViaApi(app, token, `${F}/${path}`, body), {
    oneItem: true,
  });
  page = await openSignedIn(app);
  token = await browserToken(page);
});
afterAll(async () => {
  await app?.close();
});

describe('MAC formulas', () => {
  it('refuses wrong units on the field, adds a formula, previews it, and approved it governs', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'MAC formulas' })
      .click();
    await page.getByRole('heading', { name: 'MAC formulas', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Add MAC formula' }).first().click();
    const form = openDrawer(page);
    await form.getByLabel('Name').fill('Site dose criterion');
    await form.getByLabel('Expression', { exact: true }).fill('HBEL + MBS');
    allowRefusedRequest(422, /\/facilities\/\d+\/mac-formulas/);
    await form.getByRole('button', { name: 'Add MAC formula' }).click();
    await form.getByText("Units do not match: 'HBEL + MBS' adds mg/day and mg").waitFor();

    await form.getByLabel('Expression', { exact: true }).fill(FORMULA);
    await form.getByRole('button', { name: 'Add MAC formula' }).click();
    await page.getByRole('cell', { name: 'Site dose criterion', exact: true }).waitFor();

    // The preview runs the engine in the browser on this formula alone.
    await page.getByLabel('Expression to preview').fill(FORMULA);
    await choose(page.getByLabel('Previous product'), 'A');
    await choose(page.getByLabel('Next product'), 'B');
    await page.getByText('TDD * MBS / (100000 * MDD) = 10 * 100000000 / (100000 * 400)').waitFor();

    // Being built, the formula moves no limit; approved, it governs A → B.
    expect((await pairAB()).governing).toBe('arl');
    const list = await app.server.request<{ data: { id: number; name: string }[] }>(
      'GET',
      `${F}/mac-formulas`,
      { token },
    );
    const id = list.body.data.find((f) => f.name === 'Site dose criterion')!.id;
    await putInForce(app.server, F, adminEditor(token), 'MacFormula', id);
    const pair = await pairAB();
    expect(pair.governing).toBe('formula');
    expect(pair.maco.value).toBeCloseTo(25, 9);
  });
});
