import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBody } from '#server/test/facility-test-file.ts';
import { buildUser, fullPermissionMap } from '#server/test/factories.ts';
import { ADMIN } from '#server/test/test-server.ts';
import { signIn, type AppUnderTest, startAppUnderTest } from './app-under-test.ts';
import { allowRefusedRequest } from './browser-errors.ts';
import { runKitOnApp } from './run-kit-app.ts';
import {
  browserToken,
  choose,
  discardQuestion,
  facilityApi,
  openDrawer,
  openModal,
  signInToFacility,
} from './ui.ts';

/*
 * Issue 31, the loop at the line: a batch of A ends on E1, the operator cleans it and names the
 * verification run whose results passed, the next batch is held until a second person signs the
 * release, and then starts. The run (results entered, submitted and approved) and the first
 * batch are set up through the app's own writes; the run screens have their own tests.
 */

let app: AppUnderTest;
let F: string;
// The run as people pick and read it: its study ('ST-0001 · title') and number.
let studyLabel: string;
let runNumber: number;
let studyNumber: string;
let e1: number;
let operator: Page;
let qa: Page;

const LOGBOOK = /\/equipment\/\d+\/logbook/;

beforeAll(async () => {
  app = await startAppUnderTest();
  const started = await runKitOnApp(app);
  F = started.F;
  const run = await started.kit.completedRun(await started.kit.study());
  expect(run.releaseFlag).toBe('CAN_BE_RELEASED');
  const study = (await started.kit.ok('GET', `/studies/${run.studyId as number}`)) as TestBody;
  studyNumber = study.number as string;
  studyLabel = `${studyNumber} · ${study.title as string}`;
  runNumber = run.sequence as number;
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

  operator = await app.open('/');
  await signIn(operator, user.username, user.password);
  await operator.getByRole('button', { name: 'Logout' }).waitFor();
  // QA, who releases: the administrator (their sign-in ends the API session used above).
  qa = await app.open('/');
  await signInToFacility(qa);
});
afterAll(async () => {
  await app?.close();
});

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
  it('ends the batch and records the cleaning with its verification run', async () => {
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
    await log
      .getByRole('row')
      .filter({
        hasText: `Release equipment: ${admin!.name}; Verification run ${studyNumber} run ${runNumber}`,
      })
      .waitFor();
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
