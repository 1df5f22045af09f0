import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBody } from '#server/test/facility-test-file.ts';
import { buildUser, fullPermissionMap } from '#server/test/factories.ts';
import { readPdfText } from '#server/test/read-pdf-text.ts';
import { ADMIN } from '#server/test/test-server.ts';
import { type AppUnderTest, startAppUnderTest } from './app-under-test.ts';
import { allowRefusedRequest } from './browser-errors.ts';
import { runKitOnApp } from './run-kit-app.ts';
import { enterPlanResults, recordCleaningEvent, recordPassInspection } from './run-screen.ts';
import {
  browserToken,
  choose,
  discardQuestion,
  facilityApi,
  followLink,
  openDrawer,
  openModal,
  signInDialog,
  openSignedIn,
} from './ui.ts';

/*
 * Issue 31, the loop at the line: a batch of A ends on E1 and the operator cleans it; the
 * verification run of that cleaning is entered on its run screen as it is done at the line (the
 * cleaning event, the visual inspection, a sample and its result at every planned location),
 * submitted by the operator and approved by QA, each with a signature; the operator records the
 * cleaning's end with that run, the next batch is held until a second person signs the release,
 * and then starts. The study (from its approved protocol) and the first batch are set up through
 * the app's own writes.
 */

let app: AppUnderTest;
let F: string;
let studyId: number;
// The study as people pick and read it: 'ST-0001 · title', and its number.
let studyLabel: string;
let studyNumber: string;
let runId: number;
let runNumber: number;
let e1: number;
let operator: Page;
let operatorPassword: string;
let qa: Page;

const LOGBOOK = /\/equipment\/\d+\/logbook/;

beforeAll(async () => {
  app = await startAppUnderTest();
  const started = await runKitOnApp(app);
  F = started.F;
  studyId = await started.kit.study();
  const study = (await started.kit.ok('GET', `/studies/${studyId}`)) as TestBody;
  studyNumber = study.number as string;
  studyLabel = `${studyNumber} · ${study.title as string}`;
  const { id: facilityId } = await facilityApi(app);
  const [item] = await app.server.db.query<{ id: number }>(
    `select id from equipment where facility_id = $1 and name = 'E1'`,
    [facilityId],
  );
  e1 = item!.id;
  const [a] = await app.server.db.query<{ id: number }>(
    `select id from products where facility_id = $1 and name = 'A'`,
    [facilityId],
  );
  // The line operator may do everything but release what they cleaned.
  const user = await buildUser(app.server.db, {
    facilityIds: [facilityId],
    firstName: 'Olga',
    roleName: 'Line operator',
    permissions: fullPermissionMap(),
  });
  operatorPassword = user.password;
  const log = async (token: string, body: TestBody) => {
    const res = await app.server.request('POST', `${F}/equipment/${e1}/logbook`, { token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  // The first batch: cleaned by the operator, released by QA, then A made on E1.
  const operatorToken = await app.server.login(user.username, user.password);
  await log(operatorToken, { event: 'CleaningStarted' });
  await log(operatorToken, { event: 'CleaningEnded' });
  await log(started.session.token, { event: 'Released', password: ADMIN.password });
  await log(started.session.token, { event: 'UseStarted', productId: a!.id, batch: 'A-0001' });

  operator = await openSignedIn(app, '/', { user });
  // QA, who approves and releases: the administrator (their sign-in ends the API session above).
  qa = await openSignedIn(app);
});
afterAll(async () => {
  await app?.close();
});

/** The run as the operator's session reads it (what to sample, and each location's limit). */
async function runAsRead(): Promise<TestBody> {
  const res = await app.server.request<{ run: TestBody }>('GET', `${F}/runs/${runId}`, {
    token: await browserToken(operator),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.run;
}

async function openBoard(page: Page): Promise<Locator> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Equipment status' })
    .click();
  await page.getByRole('heading', { name: 'Equipment status' }).waitFor();
  return page.getByLabel('Equipment E1');
}

const stateOf = (card: Locator) => card.locator('.ant-tag').first().textContent();

/** Opens the item's Record dialog with `event` chosen. */
async function recording(card: Locator, event: string): Promise<Locator> {
  await card.getByRole('button', { name: 'Record' }).click();
  const dialog = openModal(card.page());
  await choose(dialog.getByLabel('Event'), event);
  return dialog;
}

describe('the loop at the line', () => {
  it('ends the batch and starts the cleaning', async () => {
    const card = await openBoard(operator);
    await expect.poll(() => stateOf(card)).toBe('In use');
    await (await recording(card, 'Use ended')).getByRole('button', { name: 'Record' }).click();
    await expect.poll(() => stateOf(card)).toBe('Dirty');
    await card.getByText('Last: A, batch A-0001').waitFor();
    await (
      await recording(card, 'Cleaning started')
    )
      .getByRole('button', { name: 'Record' })
      .click();
    await expect.poll(() => stateOf(card)).toBe('Cleaning');
  });

  it('samples the cleaned item and enters the results on the run screen, submitted by signing', async () => {
    await operator.goto(`/studies/${studyId}`);
    await operator.getByRole('button', { name: 'Add run' }).click();
    const added = operator.getByText(/^Run \d+ added$/);
    runNumber = Number(/\d+/.exec((await added.textContent()) ?? '')![0]);
    await followLink(
      operator.getByRole('link', { name: `Run ${runNumber}`, exact: true }),
      /\/runs\/\d+$/,
    );
    runId = Number(new URL(operator.url()).pathname.split('/').pop());
    await operator.getByRole('heading', { name: `Run ${runNumber}` }).waitFor();

    // The cleaning, the visual inspection by the pinned checklist, then a swab at every planned
    // location: its own number, and a result at a fifth of the limit.
    await recordCleaningEvent(operator, {
      started: '02 Nov, 2026 08:00',
      ended: '02 Nov, 2026 10:00',
      dirtyHoldHours: 12,
      reason: 'Cleaning after A-0001',
    });
    const run = await runAsRead();
    await recordPassInspection(operator, run.inspection.settings.checklist as TestBody[], 800);
    await expect.poll(() => operator.getByTestId('inspection-result').textContent()).toBe('Pass');
    const plan = run.plan as TestBody[];
    expect(plan.map((row) => row.samplingLocationName)).toEqual(['Valve', 'Gasket']);
    await enterPlanResults(operator, plan, 0.2, (row) => `S-${runId}-${row.samplingLocationName}`);
    await operator.getByRole('button', { name: 'Save results' }).click();
    await expect
      .poll(() => operator.getByTestId('run-verdict').textContent())
      .toBe('Verdict: Pass');
    await expect
      .poll(() => operator.getByTestId('release-flag').textContent())
      .toBe('Can be released');
    // The saved judgement is the server's, the steel valve's 80 % recovery applied.
    await expect
      .poll(() => operator.getByTestId('judgement').allTextContents())
      .toEqual(['Pass 25.0 % of limit', 'Pass 20.0 % of limit']);
    const saved = (await runAsRead()).results as TestBody[];
    expect(saved.map((r) => r.batchNumber).sort()).toEqual(
      [`S-${runId}-Gasket`, `S-${runId}-Valve`].sort(),
    );

    await operator.getByRole('button', { name: 'Submit', exact: true }).click();
    await signInDialog(operator, 'submit', operatorPassword);
    await expect
      .poll(() => operator.getByTestId('run-status').textContent())
      .toBe('Being approved');
  });

  it('is approved by QA on the run screen', async () => {
    await qa.goto(`/runs/${runId}`);
    await qa.getByRole('heading', { name: `Run ${runNumber}` }).waitFor();
    await qa.getByRole('button', { name: 'Approve', exact: true }).click();
    await signInDialog(qa, 'approve', ADMIN.password);
    await expect.poll(() => qa.getByTestId('run-status').textContent()).toBe('Completed');
  });

  it('records the end of the cleaning with its verification run', async () => {
    const card = await openBoard(operator);
    await expect.poll(() => stateOf(card)).toBe('Cleaning');
    const ended = await recording(card, 'Cleaning ended');
    await choose(ended.getByLabel('Study of the verification run'), studyLabel);
    await choose(ended.getByLabel('Verification run', { exact: true }), `Run ${runNumber}`);
    await ended.getByRole('button', { name: 'Record' }).click();
    await expect.poll(() => stateOf(card)).toBe('Clean, awaiting release');
  });

  it('holds the next batch until the release, saying why', async () => {
    allowRefusedRequest(409, LOGBOOK);
    const card = operator.getByLabel('Equipment E1');
    const dialog = await recording(card, 'Use started');
    await choose(dialog.getByLabel('Product'), 'B');
    await dialog.getByLabel('Batch').fill('B-0001');
    await dialog.getByRole('button', { name: 'Record' }).click();
    const notice = operator.locator('.ant-notification-notice').last();
    await notice.getByText('Equipment not released').waitFor();
    await notice.getByText('The equipment is not released: Clean, awaiting release').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await (await discardQuestion(operator)).getByRole('button', { name: 'Discard' }).click();
    await expect.poll(() => stateOf(card)).toBe('Clean, awaiting release');
  });

  it('does not let the operator release what they cleaned', async () => {
    allowRefusedRequest(403, LOGBOOK);
    const card = operator.getByLabel('Equipment E1');
    const dialog = await recording(card, 'Released');
    await dialog.getByLabel('Password').fill('Secret#123');
    await dialog.getByRole('button', { name: 'Sign and release' }).click();
    await operator
      .getByText('The person who recorded the cleaning may not release the equipment')
      .first()
      .waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await (await discardQuestion(operator)).getByRole('button', { name: 'Discard' }).click();
    await expect.poll(() => stateOf(card)).toBe('Clean, awaiting release');
  });

  it('is released by a second person, whose signature is listed with the others', async () => {
    const card = await openBoard(qa);
    const dialog = await recording(card, 'Released');
    await dialog.getByText('Meaning: Release equipment.').waitFor();
    await dialog.getByLabel('Password').fill(ADMIN.password);
    await dialog.getByRole('button', { name: 'Sign and release' }).click();
    await expect.poll(() => stateOf(card)).toBe('Released');

    const [admin] = await app.server.db.query<{ name: string }>(
      `select first_name || ' ' || last_name as name from users where email = $1`,
      [ADMIN.email],
    );
    await card.getByRole('button', { name: 'Logbook' }).click();
    const log = openDrawer(qa);
    const released = log.getByRole('row').filter({
      hasText: `Release equipment: ${admin!.name}; Verification run ${studyNumber} run ${runNumber}`,
    });
    await released.waitFor();
    // The release prints as a signed record: the entry as signed, with its signature's manifest.
    const [download] = await Promise.all([
      qa.waitForEvent('download'),
      released.getByRole('button', { name: 'Release PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Release of E1 2.pdf');
    const { text } = await readPdfText(new Uint8Array(readFileSync(await download.path())));
    expect(text).toContain('Release of E1');
    expect(text).toContain(admin!.name);
    expect(text).toContain('Release equipment');
    await qa.keyboard.press('Escape');
    await qa.locator('.ant-drawer-open').waitFor({ state: 'detached' });

    const signatures = await app.server.request<{ signatures: TestBody[] }>(
      'GET',
      `${F}/signatures?documentType=EquipmentRelease&documentId=${e1}`,
      { token: await browserToken(qa) },
    );
    expect(signatures.body.signatures).toMatchObject([
      { versionNumber: 1, meaning: 'Release equipment', printedName: admin!.name, valid: true },
      { versionNumber: 2, meaning: 'Release equipment', printedName: admin!.name, valid: true },
    ]);
  });

  it('starts the next batch on the released item', async () => {
    const card = qa.getByLabel('Equipment E1');
    const dialog = await recording(card, 'Use started');
    await choose(dialog.getByLabel('Product'), 'B');
    await dialog.getByLabel('Batch').fill('B-0001');
    await dialog.getByRole('button', { name: 'Record' }).click();
    await expect.poll(() => stateOf(card)).toBe('In use');
    await card.getByText('Last: B, batch B-0001').waitFor();
  });
});
