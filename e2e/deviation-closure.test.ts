import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { TestBody } from '#server/test/facility-test-file.ts';
import { ADMIN } from '#server/test/test-server.ts';
import { browserApi, runKitAppForFile } from './run-kit-app.ts';
import { changeArrivingLive, openModal, openSignedIn, signInDialog } from './ui.ts';
import { allowRefusedRequest } from './browser-errors.ts';

/*
 * Issue 26, deviations and failed runs on the run screen: a Submit refused for want of a
 * decision on a failed result shows the server's words in the deviations; a deviation whose
 * closure was proposed reads 'Awaiting QA approval' and closes when QA signs 'Approve closure'
 * in the signature dialog; the run is then submitted.
 */

const t = runKitAppForFile();

const signWith = async (page: Page, button: string) => {
  const dialog = openModal(page);
  await dialog.getByLabel('Password').fill(ADMIN.password);
  await dialog.getByRole('button', { name: button }).click();
};

it('shows a refused Submit in the deviations, and closes a deviation when QA signs "Approve closure"', async () => {
  allowRefusedRequest(409, /\/signatures/);
  t.session.token = await t.app.server.login();
  const studyId = await t.kit.study();
  let run = await t.kit.inspectedRun(studyId, '2026-11-02T08:00:00Z');
  const at = (name: string) =>
    (run.plan as TestBody[]).find((p) => p.samplingLocationName === name)!
      .samplingLocationId as number;
  run = (
    await t.kit.results(run, [t.kit.row(run, at('Valve'), 0.2), t.kit.row(run, at('Gasket'), 3)])
  ).body.run as TestBody;
  expect(run.verdict).toBe('Fail');

  const page = await openSignedIn(t.app);
  await page.goto(`/runs/${run.id as number}`);
  await page.getByRole('heading', { name: `Run ${run.sequence as number}` }).waitFor();
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await signWith(page, 'Sign and submit');
  await expect
    .poll(() => page.getByTestId('submit-refusal').textContent())
    .toBe(
      'The run cannot be submitted: No decision on the failed result at Gasket: record a deviation for it',
    );
  await page.keyboard.press('Escape');

  // Vera investigates: she raises the deviation on the Gasket and proposes its closure.
  const vera = await t.kit.secondPerson();
  const raised = await t.kit.call(
    'POST',
    `/runs/${run.id as number}/deviations`,
    {
      kind: 'process',
      title: 'Residue at the gasket',
      samplingLocationId: at('Gasket'),
      rootCause: 'Gasket groove not reached by the spray ball',
      conclusion: 'Process failure confirmed: clean again and repeat the run',
    },
    vera.token,
  );
  expect(raised.status, JSON.stringify(raised.body)).toBe(200);
  const dev = (raised.body.run.deviations as TestBody[])[0]!;
  const proposed = await t.kit.call(
    'POST',
    '/signatures',
    { documentType: 'Deviation', documentId: dev.id, action: 'Submit', password: vera.password },
    vera.token,
  );
  expect(proposed.status, JSON.stringify(proposed.body)).toBe(200);

  // QA (the administrator, who neither raised nor proposed it) approves the closure.
  await page.reload();
  const status = page.getByTestId('deviation-status');
  await expect.poll(() => status.textContent()).toBe('Awaiting QA approval');
  await page.getByRole('button', { name: 'Approve closure' }).click();
  await expect
    .poll(() => openModal(page).getByLabel('Meaning').inputValue())
    .toBe('Approve closure');
  await signWith(page, 'Sign and approve');
  await expect.poll(() => status.textContent()).toBe('Closed');

  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await signWith(page, 'Sign and submit');
  await expect.poll(() => page.getByTestId('run-status').textContent()).toBe('Being approved');
  expect(await page.getByTestId('submit-refusal').count()).toBe(0);
});

it('refuses a closure proposal saved over a change another user made while it was open, then proposes it', async () => {
  allowRefusedRequest(409, /\/deviations\/\d+/);
  t.session.token = await t.app.server.login();
  let run = await t.kit.inspectedRun(await t.kit.study(), '2026-11-03T08:00:00Z');
  const gasket = (run.plan as TestBody[]).find((p) => p.samplingLocationName === 'Gasket')!;
  run = (await t.kit.results(run, [t.kit.row(run, gasket.samplingLocationId as number, 3)])).body
    .run as TestBody;
  const raised = await t.kit.call('POST', `/runs/${run.id as number}/deviations`, {
    kind: 'process',
    title: 'Residue at the gasket',
    samplingLocationId: gasket.samplingLocationId,
  });
  expect(raised.status, JSON.stringify(raised.body)).toBe(200);
  const dev = (raised.body.run.deviations as TestBody[])[0]!;
  const page = await openSignedIn(t.app);
  await page.goto(`/runs/${run.id as number}`);
  await page.getByRole('button', { name: 'Propose closure' }).click();
  const form = openModal(page);
  await form.getByLabel('Root cause').fill('Gasket groove not reached by the spray ball');
  await form.getByLabel('Conclusion').fill('Clean again and repeat the run');
  await form.getByLabel('Reason').fill('Closure proposed');

  // Another user's change reaches the screen as a live update while the dialog is open.
  await changeArrivingLive(page, `/runs/${run.id as number}`, () =>
    browserApi(t.app, t.F)(page, 'POST', `/deviations/${dev.id as number}`, {
      rootCause: 'Spray ball blocked',
      reason: 'Found at the inspection',
      version: dev.version,
    }),
  );
  await form.getByRole('button', { name: 'Save and sign the proposal' }).click();
  await page.getByText('Changed by someone else', { exact: true }).waitFor();
  expect(await form.getByLabel('Root cause').inputValue()).toBe(
    'Gasket groove not reached by the spray ball',
  );
  await form.getByRole('button', { name: 'Save and sign the proposal' }).click();
  await signInDialog(page, 'submit', ADMIN.password);
  await expect
    .poll(() => page.getByTestId('deviation-status').textContent())
    .toBe('Awaiting QA approval');
});
