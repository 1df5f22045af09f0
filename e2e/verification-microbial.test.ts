import { expect, it } from 'vitest';
import type { TestBody } from '#server/test/facility-test-file.ts';
import { investigateAndSubmit, qaApproves } from './investigation-flow.ts';
import { browserApi, runKitAppForFile } from './run-kit-app.ts';
import { choose, fillDateTime, openModal, openSignedIn } from './ui.ts';

/*
 * Issue 12, microbial results end to end: a started run (through the API, as the run test kit
 * does); on the run screen a contact plate count at a planned location is entered, the preview
 * shows the judgement the server then saves (the facility's default microbial policy: E1 has no
 * room grade, so the ungraded limit of 100 CFU per plate; alert at 50 %), and the alert is
 * named among the release reasons; then the count is corrected with a reason.
 */

const t = runKitAppForFile();

it('enters a microbial result on the run screen, judged in the preview as the server saves it', async () => {
  t.session.token = await t.app.server.login();
  const studyId = await t.kit.study();
  const run = await t.kit.inspectedRun(studyId, '2026-11-02T08:00:00Z');
  const page = await openSignedIn(t.app);
  await page.goto(`/runs/${run.id as number}`);
  await page.getByRole('heading', { name: `Run ${run.sequence as number}` }).waitFor();

  const card = page.locator('.ant-card').filter({ hasText: 'Microbial results' });
  await expect
    .poll(() => card.getByTestId('microbial-policy-version').textContent())
    .toMatch(/^Policy version \d+, pinned at run start$/);
  await choose(card.getByLabel('Microbial sampling location'), 'Valve');
  await choose(card.getByLabel('Microbial test'), 'Contact plate');
  await card.getByLabel('Microbial count').fill('60');
  // The day it was read, typed as the facility writes dates (the default, day first).
  await fillDateTime(card.getByLabel('Read on'), '04 Nov, 2026');
  // 60 / 100 × 100 = 60 % ≥ 50 %: Alert.
  await expect
    .poll(() => card.getByTestId('microbial-judgement').allTextContents())
    .toEqual(['Alert 60.0 % of limit']);
  await card.getByRole('button', { name: 'Save microbial result' }).click();
  await card.getByRole('cell', { name: '60 CFU/plate' }).waitFor();
  await card.getByRole('cell', { name: '04 Nov, 2026' }).waitFor();
  const saved = await browserApi(t.app, t.F)(page, 'GET', `/runs/${run.id as number}/microbial`);
  const results = (saved.microbial as TestBody).results as TestBody[];
  // The same day is sent as before: its UTC midnight.
  expect(results.map((r) => r.readAt)).toEqual(['2026-11-04T00:00:00.000Z']);
  await expect
    .poll(() => card.getByRole('table').getByTestId('microbial-judgement').allTextContents())
    .toEqual(['Alert 60.0 % of limit']);
  await card.getByText('100 CFU/plate (Ungraded contact plate)').waitFor();
  await page
    .getByLabel('Release reasons')
    .getByText('Microbial alert level reached at Valve (Contact plate) (60 % of limit)')
    .waitFor();

  // A correction of the count, with its reason (the run screen's dialog for any result).
  await card.getByRole('button', { name: 'Correct', exact: true }).click();
  const dialog = openModal(page);
  await dialog.getByLabel('Count of Valve (Contact plate)').fill('30');
  await dialog.getByLabel('Reason').fill('Plate read twice');
  await dialog.getByRole('button', { name: 'Save the correction' }).click();
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  await expect
    .poll(() => card.getByRole('table').getByTestId('microbial-judgement').allTextContents())
    .toEqual(['Pass 30.0 % of limit']);
});

/*
 * Issue 26 on the microbial results: a failing count is investigated from its row through the
 * same drawer as a sample result; once QA approved an assignable laboratory cause, the count is
 * struck through and labelled "Invalidated (investigation INV-…)", and its re-swab takes its place.
 */
it('takes a failing microbial result through an approved investigation to an invalidated result and a re-swab', async () => {
  t.session.token = await t.app.server.login();
  const run = await t.kit.inspectedRun(await t.kit.study(), '2026-11-03T08:00:00Z');
  const valve = (run.plan as TestBody[]).find((p) => p.samplingLocationName === 'Valve')!;
  const analyst = await t.kit.secondPerson();
  const entered = await t.kit.call(
    'POST',
    `/runs/${run.id as number}/microbial-results`,
    {
      results: [
        {
          key: 'm1',
          samplingLocationId: valve.samplingLocationId,
          kind: 'contactPlate',
          censoring: '=',
          rawValue: 150,
        },
      ],
    },
    analyst.token,
  );
  expect(entered.status, JSON.stringify(entered.body)).toBe(200);

  const page = await openSignedIn(t.app);
  await page.goto(`/runs/${run.id as number}`);
  await page.getByRole('heading', { name: `Run ${run.sequence as number}` }).waitFor();
  const card = page.locator('.ant-card').filter({ hasText: 'Microbial results' });
  const table = card.getByRole('table');
  await expect
    .poll(() => table.getByTestId('microbial-judgement').allTextContents())
    .toEqual(['Fail 150.0 % of limit']);

  await investigateAndSubmit(page, table, {
    findings: 'The plate was incubated at the wrong temperature.',
    cause: 'Sample handling or preparation',
    evidence: 'Incubator log shows 45 °C',
    conclusion: 'Count invalid; re-swab',
  });
  // As the browser's session: a new sign-in of the administrator would end it.
  const read = await browserApi(t.app, t.F)(page, 'GET', `/runs/${run.id as number}`);
  const investigations = read.run.investigations as TestBody[];
  expect(investigations).toHaveLength(1);
  const investigation = investigations[0]!;
  expect(investigation).toMatchObject({ resultId: null, microbialResultId: expect.any(Number) });
  await qaApproves(t.app, t.F, investigation.id as number);
  await page.reload();
  const label = `Invalidated (investigation ${investigation.number as string})`;
  await table.getByText(label).waitFor();
  // Struck through, and no longer offered for investigation.
  await table.locator('del', { hasText: '150 CFU/plate' }).waitFor();
  expect(await table.getByRole('button', { name: /investigation/i }).count()).toBe(0);

  await table.getByRole('button', { name: 'Repeat' }).click();
  const repeat = openModal(page);
  await repeat.getByLabel('Count of Valve (Contact plate)').fill('10');
  await repeat.getByLabel('Reason').fill('Re-swab after the approved investigation');
  await repeat.getByRole('button', { name: 'Save the repeat' }).click();
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  await expect
    .poll(() => table.getByTestId('microbial-judgement').allTextContents())
    .toEqual(['Fail 150.0 % of limit', 'Pass 10.0 % of limit']);
  await table.getByText(label).waitFor();
  await table.getByText('Superseded').waitFor();
});
