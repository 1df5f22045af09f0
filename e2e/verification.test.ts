import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestBody } from '#server/test/facility-test-file.ts';
import { ADMIN } from '#server/test/test-server.ts';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { browserApi, runKitOnApp } from './run-kit-app.ts';
import {
  browserToken,
  choose,
  confirmWithReason,
  fillDateTime,
  openModal,
  openSignedIn,
  signInDialog,
} from './ui.ts';
import { allowRefusedRequest } from './browser-errors.ts';
import { enterPlanResults, recordPassInspection } from './run-screen.ts';

/*
 * Issue 12 end to end: a protocol signed into force and a study started from it (through the
 * API, as the run test kit does), then three runs executed on the run screen — cleaning event,
 * the visual inspection recorded on its card (a Pass in too little light refused first),
 * passing results at every planned location — each submitted by signing in the
 * browser and approved by the second signer, until the study shows Validated.
 */

let app: AppUnderTest;
let kit: Awaited<ReturnType<typeof runKitOnApp>>['kit'];
let studyId: number;
// The administrator's API session; the browser's sign-in ends it, so each attempt signs in anew.
let session: { token: string };
let F: string;

/** A call as the browser's session (the administrator signed in there). */
const api = (page: Page, method: string, path: string, body?: unknown) =>
  browserApi(app, F)(page, method, path, body);

beforeAll(async () => {
  app = await startAppUnderTest();
  ({ kit, session, F } = await runKitOnApp(app));
});
afterAll(async () => {
  await app?.close();
});

/** Enters a passing cleaning run on the run screen and submits it by signing. */
async function executeRun(
  page: Page,
  runId: number,
  sequence: number,
  /** A batch number an earlier run used: saving it is refused onto that row's field first. */
  usedBatch?: string,
): Promise<string> {
  await page.goto(`/runs/${runId}`);
  await page.getByRole('heading', { name: `Run ${sequence}` }).waitFor();
  await expect.poll(() => page.getByTestId('run-status').textContent()).toBe('Not started');

  const event = page.locator('form#cleaning-event');
  // In the facility's own format (its default, 'DD MMM, YYYY HH:mm'), not the browser's.
  await fillDateTime(event.getByLabel('Cleaning started'), '02 Nov, 2026 08:00');
  await fillDateTime(event.getByLabel('Cleaning ended'), '02 Nov, 2026 10:00');
  await event.getByLabel('Dirty hold reached (h, maximum 24 h)').fill('30');
  await page.getByText('Dirty hold breach: 30 h is above the protocol maximum of 24 h').waitFor();
  await event.getByLabel('Dirty hold reached (h, maximum 24 h)').fill('12');
  await event.getByLabel('Reason').fill('Cleaning recorded at the line');
  await event.getByRole('button', { name: 'Save cleaning event' }).click();
  await expect.poll(() => page.getByTestId('run-status').textContent()).toBe('In progress');

  // The visual inspection, judged by the cleaning inspection settings the start pinned: the
  // first run tries a Pass in too little light, refused onto the light field.
  const pinned = (await api(page, 'GET', `/runs/${runId}`)).run.inspection as TestBody;
  await expect
    .poll(() => page.getByTestId('inspection-settings-version').textContent())
    .toBe(`Cleaning inspection settings version ${pinned.settingsVersion}`);
  const inspection = page.locator('form#inspection');
  await recordPassInspection(
    page,
    pinned.settings.checklist as TestBody[],
    sequence === 1 ? 300 : 800,
  );
  if (sequence === 1) {
    await inspection
      .getByText(
        '300 lux is below the minimum of 500 lux: a Pass needs enough light to see residue; raise the light and inspect again',
      )
      .waitFor();
    await expect.poll(() => page.getByTestId('inspection-result').count()).toBe(0);
    await inspection.getByLabel(/^Light at the surface/).fill('800');
    await inspection.getByRole('button', { name: 'Record inspection' }).click();
  }
  await expect.poll(() => page.getByTestId('inspection-result').textContent()).toBe('Pass');

  // Both planned swab locations: a value at a fifth of the limit passes already in the preview,
  // which divides by the recovery the server will apply (80 % on the steel valve).
  const run = (await api(page, 'GET', `/runs/${runId}`)).run as TestBody;
  await enterPlanResults(
    page,
    run.plan as TestBody[],
    0.2,
    (row) => `B-${runId}-${row.samplingLocationId}`,
  );
  const plan = run.plan as TestBody[];
  const first = page.locator(`[aria-label="Location ${plan[0]!.samplingLocationName} (Swab)"]`);
  const batchOf = (row: TestBody) => `B-${runId}-${row.samplingLocationId}`;
  if (usedBatch) {
    const batch = first.getByLabel(/^Sample number of/);
    await batch.fill(usedBatch);
    await page.getByRole('button', { name: 'Save results' }).click();
    await first.getByText('Batch number must be unique across samples').waitFor();
    await expect.poll(() => page.getByTestId('run-verdict').textContent()).toBe('Verdict: Pending');
    await batch.fill(batchOf(plan[0]!));
  }
  await page.getByRole('button', { name: 'Save results' }).click();
  await expect.poll(() => page.getByTestId('run-verdict').textContent()).toBe('Verdict: Pass');
  await expect.poll(() => page.getByTestId('release-flag').textContent()).toBe('Can be released');
  // The saved judgement is the server's: the steel valve's 80 % recovery is applied.
  await expect
    .poll(() => page.getByTestId('judgement').allTextContents())
    .toEqual(['Pass 25.0 % of limit', 'Pass 20.0 % of limit']);

  if (sequence === 3) {
    // A re-swab of the gasket: a new result that supersedes the first, which stays shown.
    const gasket = page.locator('[aria-label="Location Gasket (Swab)"]');
    const limit = plan.find((row) => row.samplingLocationName === 'Gasket')!.limit as number;
    await gasket.getByRole('button', { name: 'Retest / re-swab' }).click();
    const repeat = openModal(page);
    await repeat.getByText('Re-swab (new sample)').click();
    await repeat.getByLabel(/^Value of/).fill(String(limit * 0.1));
    await repeat.getByLabel(/^Sample number of/).fill(`B-${runId}-reswab`);
    await repeat.getByLabel('Reason').fill('Swab touched the glove');
    await repeat.getByRole('button', { name: 'Save the repeat' }).click();
    await gasket.getByText(/^Superseded: /).waitFor();
    await expect
      .poll(() => gasket.getByTestId('judgement').textContent())
      .toBe('Pass 10.0 % of limit');
    await gasket.getByText('Re-swab: Swab touched the glove').waitFor();
  }

  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await signInDialog(page, 'submit', ADMIN.password);
  await expect.poll(() => page.getByTestId('run-status').textContent()).toBe('Being approved');
  return batchOf(plan[0]!);
}

it('takes a study from its protocol through three runs entered on the run screen to Validated', async () => {
  // A Pass in too little light is refused first.
  allowRefusedRequest(422, /\/runs\/\d+\/inspection/);
  // Runs 2 and 3 first save the batch number of the run before: refused as a duplicate.
  allowRefusedRequest(409, /\/runs\/\d+\/results/);
  // A study of its own per attempt: a retry runs on the same database.
  session.token = await app.server.login();
  studyId = await kit.study();
  // The browser's sign-in ends the kit's administrator session: API calls use the browser's.
  const page = await openSignedIn(app);
  let usedBatch: string | undefined;
  for (const sequence of [1, 2, 3]) {
    const created = await api(page, 'POST', `/studies/${studyId}/runs`, {});
    const runId = created.run.id as number;
    usedBatch = await executeRun(page, runId, sequence, usedBatch);
    const approved = await kit.sign({ id: runId }, 'Approve');
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    await page.reload();
    await expect.poll(() => page.getByTestId('run-status').textContent()).toBe('Completed');
  }
  await page.getByRole('link', { name: /← Study ST-\d+/ }).click();
  await page.waitForURL(new RegExp(`/studies/${studyId}$`));
  await expect.poll(() => page.getByTestId('study-outcome').textContent()).toBe('Validated');
  await expect.poll(() => page.getByTestId('consecutive-passes').textContent()).toContain('3 of 3');

  // Ongoing verification of the equipment: its six counted results on the charts.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Ongoing verification' })
    .click();
  await page.getByRole('heading', { name: 'Ongoing verification' }).waitFor();
  await choose(page.getByLabel('Item'), 'E1');
  const individuals = page.getByRole('img', { name: /^Individuals/ });
  await expect
    .poll(() => individuals.getAttribute('aria-label'))
    .toMatch(/^Individuals \(% of limit\): \d+ results, 0 censored, mean 20\.8 %/);
  await expect
    .poll(() => page.getByRole('img', { name: /^Ppu/ }).getAttribute('aria-label'))
    .toMatch(/meets the target/);
  await page.getByRole('img', { name: /^Moving range/ }).waitFor();
  await page.getByRole('img', { name: /^EWMA/ }).waitFor();
});

it('starts a study from an accepted task, edits its header and closes it as Failed, its run then read-only', async () => {
  session.token = await app.server.login();
  // An approved protocol (the kit's study is only its vehicle) and an accepted task of A on Line 1.
  const vehicle = await kit.call('GET', `/studies/${await kit.study()}`);
  const protocol = await kit.call('GET', `/protocols/${vehicle.body.protocolId}`);
  const protocolLabel = `${protocol.body.protocolNumber} ${protocol.body.name}`;
  const byName = async (path: string, name: string) => {
    const res = await kit.call('GET', `/${path}?search=${encodeURIComponent(name)}`);
    return (res.body.data as TestBody[]).find((r) => r.name === name)!.id as number;
  };
  const [facilityRow] = await app.server.db.query<{ id: number }>(
    'select facility_id as id from productions where id = $1',
    [await byName('productions', 'Line 1')],
  );
  // Unique per attempt: a retry runs on the same database.
  const scope = `A on train Line 1: no study covers it (${Date.now()})`;
  await app.server.db.query(
    `insert into qualification_tasks (facility_id, evaluation_id, first_evaluation_id, train_id,
       train_name, product_id, product_name, gap, proposed_study_type, scope, due_date, status,
       decided_at)
     values ($1, 1, 1, $2, 'Line 1', $3, 'A', 'notCovered', 'New Product Introduction',
             $4, current_date, 'Accepted', now())
     returning id`,
    [facilityRow!.id, await byName('productions', 'Line 1'), await byName('products', 'A'), scope],
  );
  const page = await openSignedIn(app);

  // Start study on the accepted task: the modal comes with the task as origin and its type.
  await page.goto('/cleaning-assessments?tab=tasks');
  await choose(page.getByRole('combobox', { name: 'Task status' }), 'Accepted');
  const row = page.locator('tr.ant-table-row', { hasText: scope });
  await row.getByRole('button', { name: 'Start study' }).click();
  const modal = openModal(page);
  await expect
    .poll(() => modal.getByLabel('Title').inputValue())
    .toBe('New Product Introduction: A on Line 1');
  await choose(modal.getByLabel('Protocol'), protocolLabel);
  await modal.getByRole('button', { name: 'Create study' }).click();
  await page.waitForURL(/\/studies\/\d+$/);
  await page
    .getByRole('heading', { name: /ST-\d+ New Product Introduction: A on Line 1/ })
    .waitFor();
  await page.getByRole('link', { name: 'A on Line 1' }).waitFor();
  expect(await page.getByText(`${protocol.body.name}, version 1`).count()).toBe(1);

  // The header is edited with a reason.
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const edit = openModal(page);
  await edit.getByLabel('Title').fill('NPI of A on Line 1');
  await edit.getByLabel('Description').fill('Introduction of product A');
  await confirmWithReason(page, 'Shorter title');
  await page.getByRole('heading', { name: /ST-\d+ NPI of A on Line 1/ }).waitFor();
  await page.getByText('Introduction of product A').waitFor();

  // A run, then the study closed with a reason: it has not validated, so it is Failed.
  await page.getByRole('button', { name: 'Add run' }).click();
  const runRow = page.getByRole('table', { name: 'Runs' }).getByRole('row', { name: /Run 1/ });
  await expect.poll(() => runRow.textContent()).toContain('Not started');
  await page.getByRole('button', { name: 'Close study' }).click();
  const close = openModal(page);
  await close
    .getByText(/has not validated, so it closes as Failed and its runs are frozen/)
    .waitFor();
  await confirmWithReason(page, 'Product A withdrawn', 'Close the study');
  await expect.poll(() => page.getByTestId('study-outcome').textContent()).toBe('Failed');
  await page.getByText('Closed without validating').waitFor();
  expect(await page.getByRole('button', { name: 'Close study' }).count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Add run' }).count()).toBe(0);

  // Its run is read-only on the run screen, and the server refuses a change anyway.
  await runRow.getByRole('link', { name: 'Run 1' }).click();
  await page.waitForURL(/\/runs\/\d+$/);
  const runId = Number(new URL(page.url()).pathname.split('/').pop());
  const closedNotice = page.getByTestId('study-closed');
  await expect
    .poll(() => closedNotice.textContent())
    .toMatch(/^ST-\d{4} is closed: run 1 can no longer change\.$/);
  for (const name of ['Save cleaning event', 'Record inspection', 'Save results', 'Submit']) {
    expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0);
  }
  expect(await page.getByRole('button', { name: 'Add deviation' }).count()).toBe(0);
  const run = (await api(page, 'GET', `/runs/${runId}`)).run as TestBody;
  expect(run.studyClosed).toBe(true);
  const refused = await app.server.request<TestBody>('POST', `${F}/runs/${runId}`, {
    token: await browserToken(page),
    body: { startedAt: '2026-11-02T08:00:00.000Z', reason: 'Late entry', version: run.version },
  });
  expect(refused.status).toBe(409);
  expect(refused.body).toMatchObject({ errName: 'TransactionLocked' });
  expect(refused.body.message).toMatch(/^ST-\d{4} is closed: run 1 can no longer change\.$/);
});
