import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import type { TestBody } from '#server/test/facility-test-file.ts';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { investigateAndSubmit, qaApproves } from './investigation-flow.ts';
import { browserApi, runKitOnApp } from './run-kit-app.ts';
import { changeArrivingLive, openDrawer, openModal, openSignedIn } from './ui.ts';
import { allowRefusedRequest } from './browser-errors.ts';

/*
 * Issue 26, out-of-specification results on the run screen (FDA OOS guidance 2006/2022): a
 * failing result is investigated in a drawer (phase I: findings, an assignable laboratory cause,
 * the conclusion), submitted through the signature dialog and approved by QA; the result then
 * shows 'Invalidated (investigation INV-…)', and its retest, entered by another analyst than the
 * one who entered it, takes its place while the original stays listed, struck through.
 */

let app: AppUnderTest;
let onApp: Awaited<ReturnType<typeof runKitOnApp>>;

// The app and its run kit for the file; the returned function closes the app after it.
beforeAll(async () => {
  app = await startAppUnderTest();
  onApp = await runKitOnApp(app);
  return () => app.close();
});

const api = (page: Page, method: string, path: string, body?: unknown) =>
  browserApi(app, onApp.F)(page, method, path, body);

it('takes a failed result through an approved investigation to an invalidated result and a retest', async () => {
  const { kit, session, F } = onApp;
  session.token = await app.server.login();
  const studyId = await kit.study();
  let run = await kit.inspectedRun(studyId, '2026-11-02T08:00:00Z');
  // Another analyst enters the failing gasket result: the administrator may then retest it.
  const analyst = await kit.secondPerson();
  const gasket = (run.plan as TestBody[]).find((p) => p.samplingLocationName === 'Gasket')!;
  const entered = await kit.call(
    'POST',
    `/runs/${run.id as number}/results`,
    { results: [kit.row(run, gasket.samplingLocationId as number, 3)] },
    analyst.token,
  );
  expect(entered.status, JSON.stringify(entered.body)).toBe(200);
  run = entered.body.run as TestBody;

  const page = await openSignedIn(app);
  await page.goto(`/runs/${run.id as number}`);
  await page.getByRole('heading', { name: `Run ${run.sequence as number}` }).waitFor();
  const card = page.locator('[aria-label="Location Gasket (Swab)"]');
  await expect
    .poll(() => card.getByTestId('judgement').textContent())
    .toBe('Fail 300.0 % of limit');

  // Phase I: opened from the failed result, written with its cause and conclusion.
  await investigateAndSubmit(page, card, {
    findings: 'Reinjection of the same solution reads 10 % of limit.',
    cause: 'Standard or reagent',
    evidence: 'Standard weighed at half strength',
    conclusion: 'Original result invalid; retest with a new standard',
  });
  const run0 = (await api(page, 'GET', `/runs/${run.id as number}`)).run as TestBody;
  const investigation = (run0.investigations as TestBody[])[0]!;
  await qaApproves(app, F, investigation.id as number);
  await page.reload();
  await card.getByText(`Invalidated (investigation ${investigation.number as string})`).waitFor();

  // The retest takes its place; the original stays, struck through and marked.
  await card.getByRole('button', { name: 'Retest / re-swab' }).click();
  const repeat = openModal(page);
  await repeat
    .getByLabel('Value of the repeat of Gasket (Swab)')
    .fill(String((gasket.limit as number) * 0.1));
  await repeat.getByLabel('Reason').fill('Retest after the approved investigation');
  await repeat.getByRole('button', { name: 'Save the repeat' }).click();
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  await expect.poll(() => card.getByTestId('judgement').textContent()).toBe('Pass 10.0 % of limit');
  await card
    .getByText(`Invalidated (investigation ${investigation.number as string})`, { exact: false })
    .waitFor();
  const after = (await api(page, 'GET', `/runs/${run.id as number}`)).run as TestBody;
  const [original, retest] = after.results as TestBody[];
  expect(original).toMatchObject({
    supersededBy: retest!.id,
    invalidatedBy: { number: investigation.number },
  });
});

it('refuses to save an investigation over a change another user made while it was being written', async () => {
  const { kit, session } = onApp;
  session.token = await app.server.login();
  const run = await kit.inspectedRun(await kit.study(), '2026-11-03T08:00:00Z');
  const gasket = (run.plan as TestBody[]).find((p) => p.samplingLocationName === 'Gasket')!;
  const entered = await kit.results(run, [kit.row(run, gasket.samplingLocationId as number, 3)]);
  expect(entered.status, JSON.stringify(entered.body)).toBe(200);
  const page = await openSignedIn(app);
  await page.goto(`/runs/${run.id as number}`);
  const card = page.locator('[aria-label="Location Gasket (Swab)"]');
  await card.getByRole('button', { name: 'Open investigation' }).click();
  const drawer = openDrawer(page);
  await drawer.getByRole('button', { name: 'Write investigation' }).click();
  const form = openModal(page);
  await form.getByLabel('Findings').fill('Reinjection reads 10 % of limit.');
  await form.getByLabel('Reason').fill('Phase I findings');

  // Another user's findings reach the screen as a live update while the dialog is open: the
  // save is made from the version the dialog opened on, so it is refused, not saved over them.
  allowRefusedRequest(409, /\/investigations\/\d+/);
  const now = (await api(page, 'GET', `/runs/${run.id as number}`)).run as TestBody;
  const investigation = (now.investigations as TestBody[])[0]!;
  await changeArrivingLive(page, `/runs/${run.id as number}`, () =>
    api(page, 'POST', `/investigations/${investigation.id as number}`, {
      findings: 'Column pressure drifted during the sequence.',
      reason: 'Second analyst findings',
      version: investigation.version,
    }),
  );
  await form.getByRole('button', { name: 'Save investigation' }).click();
  await page.getByText('Changed by someone else', { exact: true }).waitFor();
  expect(await form.getByLabel('Findings').inputValue()).toBe('Reinjection reads 10 % of limit.');
  // Told, the user saves again from the reloaded version.
  await form.getByRole('button', { name: 'Save investigation' }).click();
  await drawer.getByText('Reinjection reads 10 % of limit.').waitFor();
});
