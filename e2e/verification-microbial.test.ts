import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { runKitOnApp } from './run-kit-app.ts';
import { choose, openModal, signInToFacility } from './ui.ts';

/*
 * Issue 12, microbial results end to end: a started run (through the API, as the run test kit
 * does); on the run screen a contact plate count at a planned location is entered, the preview
 * shows the judgement the server then saves (the facility's default microbial policy: E1 has no
 * room grade, so the ungraded limit of 100 CFU per plate; alert at 50 %), and the alert is
 * named among the release reasons; then the count is corrected with a reason.
 */

let app: AppUnderTest;
let kit: Awaited<ReturnType<typeof runKitOnApp>>['kit'];
let session: { token: string };

beforeAll(async () => {
  app = await startAppUnderTest();
  ({ kit, session } = await runKitOnApp(app));
});
afterAll(async () => {
  await app?.close();
});

it('enters a microbial result on the run screen, judged in the preview as the server saves it', async () => {
  session.token = await app.server.login();
  const studyId = await kit.study();
  const created = await kit.newRun(studyId);
  const run = await kit.visualPass(await kit.event(created, { startedAt: '2026-11-02T08:00:00Z' }));
  const page = await app.open('/');
  await signInToFacility(page);
  await page.goto(`/runs/${run.id as number}`);
  await page.getByRole('heading', { name: `Run ${run.sequence as number}` }).waitFor();

  const card = page.locator('.ant-card').filter({ hasText: 'Microbial results' });
  await expect
    .poll(() => card.getByTestId('microbial-policy-version').textContent())
    .toMatch(/^Policy version \d+, pinned at run start$/);
  await choose(card.getByLabel('Microbial sampling location'), 'Valve');
  await choose(card.getByLabel('Microbial test'), 'Contact plate');
  await card.getByLabel('Microbial count').fill('60');
  // 60 / 100 × 100 = 60 % ≥ 50 %: Alert.
  await expect
    .poll(() => card.getByTestId('microbial-judgement').allTextContents())
    .toEqual(['Alert 60.0 % of limit']);
  await card.getByRole('button', { name: 'Save microbial result' }).click();
  await card.getByRole('cell', { name: '60 CFU/plate' }).waitFor();
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
