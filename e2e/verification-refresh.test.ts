import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { TestBody } from '#server/test/facility-test-file.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { ADMIN } from '#server/test/test-server.ts';
import { browserApi, runKitAppForFile } from './run-kit-app.ts';
import { enterPlanResults } from './run-screen.ts';
import { choose, facilityApi, signInDialog, openSignedIn } from './ui.ts';

/*
 * Issue 30: "statistics and the dashboard are not refreshed after results are entered or a run
 * is signed". The ongoing verification statistics of E1 and the dashboard stay open, in a second
 * tab of the browser that enters the results and in another user's browser, while results are
 * entered on a run and the run is signed: their figures follow without a reload.
 */

const t = runKitAppForFile();

const individuals = (page: Page) => page.getByRole('img', { name: /^Individuals/ });
const ppu = (page: Page) => page.getByRole('img', { name: /^Ppu/ });
const mySignatures = (page: Page) =>
  page.locator('.ant-card').filter({ has: page.getByText('Waiting for my signature') });

async function openStatistics(page: Page): Promise<void> {
  await page.goto('/verification');
  await page.getByRole('heading', { name: 'Ongoing verification' }).waitFor();
  await choose(page.getByLabel('Item'), 'E1');
}

async function openDashboard(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByRole('heading', { name: /^Where .* stands$/ }).waitFor();
}

it('keeps the statistics and the dashboard open elsewhere current as results are entered and the run signed', async () => {
  t.session.token = await t.app.server.login();
  const studyId = await t.kit.study();
  // Two counted results on E1 already (a fifth and a quarter of the limit).
  await t.kit.completedRun(studyId);
  const run = await t.kit.inspectedRun(studyId, '2026-11-02T08:00:00Z');

  // A reviewer (QA) who may read the statistics of an item and approve runs, in a browser of their own.
  const facility = await facilityApi(t.app);
  const reviewer = await buildUser(t.app.server.db, {
    facilityIds: [facility.id],
    firstName: 'Quinn',
    permissions: permissionsWith({
      ApprovalPolicy: ['Get', 'Sign'],
      QualificationTask: ['Get'],
      Equipment: ['Get'],
    }),
  });
  const b = await openSignedIn(t.app, '/', { user: reviewer });
  const bDashboard = await b.context().newPage();
  await openDashboard(bDashboard);
  await bDashboard.getByText('Nothing is waiting for your signature.').waitFor();
  await openStatistics(b);

  // The administrator: the run screen in one tab, the statistics and the dashboard in others.
  const a = await openSignedIn(t.app);
  const aStatistics = await a.context().newPage();
  await openStatistics(aStatistics);
  for (const page of [aStatistics, b]) {
    await expect
      .poll(() => individuals(page).getAttribute('aria-label'))
      .toMatch(/^Individuals \(% of limit\): 2 results, 0 censored, mean 22\.5 %/);
  }
  const ppuBefore = await ppu(b).getAttribute('aria-label');

  // Results at half the limit entered and saved on the run screen.
  await a.goto(`/runs/${run.id}`);
  await a.getByRole('heading', { name: 'Run 2' }).waitFor();
  const read = (await browserApi(t.app, t.F)(a, 'GET', `/runs/${run.id}`)).run as TestBody;
  await enterPlanResults(
    a,
    read.plan as TestBody[],
    0.5,
    (row) => `R-${run.id}-${row.samplingLocationId}`,
  );
  await a.getByRole('button', { name: 'Save results' }).click();
  await expect.poll(() => a.getByTestId('run-verdict').textContent()).toBe('Verdict: Pass');

  // Both statistics follow, untouched: four results, a higher mean, another Ppu.
  for (const page of [aStatistics, b]) {
    await expect
      .poll(() => individuals(page).getAttribute('aria-label'), { timeout: 15_000 })
      .toMatch(/^Individuals \(% of limit\): 4 results, 0 censored, mean 39\.4 %/);
  }
  await expect.poll(() => ppu(b).getAttribute('aria-label')).not.toBe(ppuBefore);
  expect(await ppu(aStatistics).getAttribute('aria-label')).toBe(
    await ppu(b).getAttribute('aria-label'),
  );

  // The run signed (submitted): the reviewer's dashboard counts it as waiting for them.
  await a.getByRole('button', { name: 'Submit', exact: true }).click();
  await signInDialog(a, 'submit', ADMIN.password);
  await expect.poll(() => a.getByTestId('run-status').textContent()).toBe('Being approved');
  await expect
    .poll(() => mySignatures(bDashboard).locator('.ant-statistic').innerText(), { timeout: 15_000 })
    .toMatch(/^1\s*record$/);
});
