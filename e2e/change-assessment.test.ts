import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { ADMIN } from '#server/test/test-server.ts';
import { signIn, startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import {
  changeArrivingLive,
  choose,
  facilityApi,
  facilityRecords,
  openDrawer,
  openModal,
  openSignedIn,
  signInDialog,
} from './ui.ts';
import { seedTwoProducts } from './two-products.ts';
import { browserApi } from './run-kit-app.ts';
import { allowRefusedRequest } from './browser-errors.ts';

let app: AppUnderTest;
let page: Page;
let F: string;
let facilityId: number;

/** Two products on one line (the what-if e2e's facility): B → A's MACO is 250 mg. */
async function seedSmallFacility(): Promise<void> {
  const create = await facilityRecords(app, F);
  await seedTwoProducts(create);
  await create('moc', {
    mocNumber: 'MOC-2026-014',
    name: 'New toxicological assessment of Beta',
    changeType: 'Product change',
    status: 'Under assessment',
  });
}

/** The MACO of a pair as the server computes it now, read with the page's session. */
function macoOf(on: Page, previous: string, next: string): Promise<number | undefined> {
  return on.evaluate(
    async ({ path, previous, next }) => {
      const token = sessionStorage.getItem('token') ?? '';
      const res = await fetch(`${path}/mac-matrix`, { headers: { token } });
      const matrix = (await res.json()) as {
        pairs?: { previous: string; next: string; maco: { value: number } }[];
      };
      return matrix.pairs?.find((p) => p.previous === previous && p.next === next)?.maco.value;
    },
    { path: F, previous, next },
  );
}

async function storedPdeOfBeta(): Promise<unknown> {
  const [row] = await app.server.db.query<{ pde: unknown }>(
    `select pde from actives where facility_id = $1 and name = 'Beta'`,
    [facilityId],
  );
  return row?.pde;
}

/**
 * Gives the reason in the dialog on top and stages: the server tries the change on the real
 * write path first, which on a busy machine takes longer than a plain save.
 */
async function stageWithReason(
  on: Page,
  reason: string,
  title = 'Why is this change staged?',
): Promise<void> {
  const dialog = on.getByRole('dialog', { name: title });
  await dialog.getByLabel('Reason').fill(reason);
  await dialog.getByRole('button', { name: 'Stage change', exact: true }).click();
  await expect.poll(() => on.getByRole('dialog').count(), { timeout: 30_000 }).toBe(0);
}

/** Stages an edit of an active's PDE through the same form as a direct edit. */
async function stagePde(
  on: Page,
  active: string,
  pde: { from: string; to: string },
  reason: string,
): Promise<void> {
  await on.getByRole('button', { name: 'Stage a change' }).click();
  const picker = openModal(on);
  await choose(picker.getByLabel('Record type'), 'Active');
  await choose(picker.getByLabel('Change', { exact: true }), 'Edit');
  await choose(picker.getByLabel('Active', { exact: true }), active);
  await picker.getByRole('button', { name: 'Continue' }).click();
  const form = openDrawer(on);
  await form.getByText(`Stage: edit active '${active}'`).waitFor();
  const field = form.getByLabel('PDE/ADE', { exact: true });
  await expect.poll(() => field.inputValue()).toBe(pde.from);
  await field.fill(pde.to);
  await expect.poll(() => field.inputValue()).toBe(pde.to);
  await on.getByRole('button', { name: 'Stage change', exact: true }).click();
  await stageWithReason(on, reason);
}

/** Opens a new change assessment from the Change control list. */
async function newAssessment(title: string, changeType: string): Promise<void> {
  await page.goto('/change-control');
  await page.getByRole('button', { name: 'New change assessment' }).first().click();
  const header = openModal(page);
  await header.getByLabel('Title').fill(title);
  await choose(header.getByLabel('Change type'), changeType);
  await header.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('heading', { name: title }).waitFor();
}

beforeAll(async () => {
  app = await startAppUnderTest();
  ({ id: facilityId, path: F } = await facilityApi(app));
  await seedSmallFacility();
  page = await openSignedIn(app);
});
afterAll(async () => {
  await app?.close();
});

it('a PDE change is staged, evaluated, decided, approved by a second user, and only then moves the limit', async () => {
  const pdeBefore = await storedPdeOfBeta();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Change control' })
    .click();
  await page.getByText('No change assessments yet').waitFor();
  await page.getByRole('button', { name: 'New change assessment' }).first().click();
  const header = openModal(page);
  await header.getByLabel('Title').fill('Beta PDE from the new toxicological assessment');
  await choose(header.getByLabel('Change type'), 'HBEL/dose/batch change');
  await header.getByLabel('Description').fill('The PDE of Beta is halved.');
  await choose(
    header.getByLabel('Change-of-control record'),
    'New toxicological assessment of Beta',
  );
  await header.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('heading', { name: /Beta PDE from the new toxicological/ }).waitFor();
  expect(await page.getByTestId('change-status').first().textContent()).toBe('Not Evaluated');

  // Stage: the same form as a direct edit of the active, sent to the assessment.
  await stagePde(page, 'Beta', { from: '1', to: '0.5' }, 'New toxicological assessment of Beta');
  const staged = page.getByRole('region', { name: 'Staged changes' });
  await expect.poll(() => staged.locator('tbody tr.ant-table-row').count()).toBe(1);
  // Staging changed nothing.
  expect(await storedPdeOfBeta()).toEqual(pdeBefore);

  await page.getByRole('button', { name: 'Evaluate', exact: true }).click();
  await page.getByText(/^Current: evaluated/).waitFor({ timeout: 20_000 });
  expect(await page.getByTestId('change-status').first().textContent()).toBe('Pending Approval');

  // B → A: health 0.001 mg × 50 kg / 200 mg = 250 mg; with half the PDE, 125 mg.
  const impact = page.getByRole('region', { name: 'Impact' });
  const rows = impact.locator('tbody tr.ant-table-row');
  await expect.poll(() => rows.count()).toBeGreaterThan(0);
  const texts = await rows.allTextContents();
  expect(texts.some((text) => text.includes('250 mg → 125 mg') && text.includes('-50.0 %'))).toBe(
    true,
  );
  // The pairs behind B's item, and the impact as a PDF.
  await rows.filter({ hasText: '250 mg → 125 mg' }).getByRole('button', { name: '1' }).click();
  const pairs = openDrawer(page);
  await pairs.getByText('Pairs of B').waitFor();
  await expect.poll(() => pairs.locator('tbody tr.ant-table-row').count()).toBe(1);
  expect(await pairs.locator('tbody tr.ant-table-row').textContent()).toContain('-50.0 %');
  await page.getByRole('button', { name: 'Close' }).click();
  const [pdf] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export impact (PDF)' }).click(),
  ]);
  expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);

  // One decision on every item at once.
  await impact.locator('thead .ant-checkbox-input').check();
  await impact.getByRole('button', { name: /^Decide on \d+ selected$/ }).click();
  const decision = openModal(page);
  await choose(decision.getByLabel('Decision'), 'Verification');
  await decision.getByLabel('Justification').fill('A verification swab run on Line 1 covers it');
  await decision.getByRole('button', { name: 'Record decision' }).click();
  await page.getByText('Every impact item has a decision.').waitFor();
  await expect.poll(() => impact.getByText('Undecided', { exact: true }).count()).toBe(0);

  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  await signInDialog(page, 'submit', ADMIN.password);
  await expect
    .poll(() => page.getByTestId('record-status').first().textContent())
    .toBe('Being approved');
  // Submitted, still not applied.
  expect(await macoOf(page, 'B', 'A')).toBeCloseTo(250, 9);
  const assessmentPath = new URL(page.url()).pathname;

  const approver = await buildUser(app.server.db, {
    facilityIds: [facilityId],
    permissions: permissionsWith({
      ApprovalPolicy: ['Get', 'Sign'],
      FacilityCleaningEvaluation: ['Get'],
      RiskCalculation: ['Get'],
    }),
  });
  const second = await app.open('/');
  await signIn(second, approver.username, approver.password);
  await second.getByRole('button', { name: 'Logout' }).waitFor();
  await second.goto(assessmentPath);
  await second.getByRole('button', { name: 'Approve', exact: true }).click();
  await signInDialog(second, 'approve', approver.password);
  await expect
    .poll(() => second.getByTestId('change-status').first().textContent())
    .toBe('Approved');
  // Applied, its evaluation is frozen as approved: never stale, its changes marked applied.
  await second.getByText(/^Applied .*: the evaluation as approved$/).waitFor();
  await second.getByRole('cell', { name: 'Applied' }).first().waitFor();
  expect(await second.getByText(/evaluate again/).count()).toBe(0);

  // The moc register links the record to its assessment.
  await page.goto('/master-data/moc');
  const moc = page.locator('tbody tr.ant-table-row', { hasText: 'MOC-2026-014' });
  await moc.getByRole('link', { name: 'CA-0001' }).waitFor();
  expect(await moc.getByTestId('change-status').textContent()).toBe('Approved');

  // Applied: the PDE and the limit in the MAC matrix moved.
  expect(await storedPdeOfBeta()).not.toEqual(pdeBefore);
  await second
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'MAC matrix' })
    .click();
  await second.getByRole('tab', { name: 'Pairs' }).click();
  expect(await macoOf(second, 'B', 'A')).toBeCloseTo(125, 9);
  // The pairs table (a virtual one: rows and cells are divs) shows B → A at 125 mg.
  const pairsOf = () =>
    second
      .locator('.ant-table-row')
      .evaluateAll((rows) =>
        rows.map((row) =>
          [...row.querySelectorAll('.ant-table-cell')].map((cell) => cell.textContent ?? ''),
        ),
      );
  await expect
    .poll(async () => (await pairsOf()).find((cells) => cells[0] === 'B' && cells[1] === 'A'))
    .toEqual(expect.arrayContaining([expect.stringMatching(/^125 mg/)]));
});

it('a policy edit is staged through the policy editor, and its evaluation shows the limit it moves', async () => {
  await newAssessment('The general limit is not applied to this site', 'Policy change');

  await page.getByRole('button', { name: 'Stage a change' }).click();
  const picker = openModal(page);
  await choose(picker.getByLabel('Record type'), 'Cleaning limit policy');
  await choose(picker.getByLabel('Residue type'), 'Chemical');
  await picker.getByRole('button', { name: 'Continue' }).click();
  const arl = page.getByRole('switch', { name: 'Use general limit (ARL)' });
  await expect.poll(() => arl.getAttribute('aria-checked')).toBe('true');
  await arl.click();
  await page.getByRole('button', { name: 'Stage change', exact: true }).click();
  await stageWithReason(
    page,
    'General limit not applied to this site',
    'Stage the change of the Chemical policy',
  );
  const staged = page.getByRole('region', { name: 'Staged changes' });
  await expect.poll(() => staged.locator('tbody tr.ant-table-row').count()).toBe(1);

  // A → B: without the general limit (1,000 mg) the dose criterion (2,500 mg) governs.
  await page.getByRole('button', { name: 'Evaluate', exact: true }).click();
  await page.getByText(/^Current: evaluated/).waitFor({ timeout: 20_000 });
  const rows = page.getByRole('region', { name: 'Impact' }).locator('tbody tr.ant-table-row');
  await expect.poll(() => rows.count()).toBeGreaterThan(0);
  const texts = await rows.allTextContents();
  expect(texts.some((text) => text.includes('1,000 mg → 2,500 mg'))).toBe(true);
  // Nothing changed: the policy in force still applies the general limit.
  expect(await macoOf(page, 'A', 'B')).toBeCloseTo(1000, 9);
});

it('an evaluation that moves no limit says why: the criterion that moved and the one that governs', async () => {
  await newAssessment('Alpha PDE from the new monograph', 'HBEL/dose/batch change');

  await stagePde(page, 'Alpha', { from: '0.1', to: '0.05' }, 'New monograph of Alpha');

  // A → B: health-based 0.1 mg × 100 kg / 400 mg = 25,000 mg, halved; the general limit
  // (10 ppm × 100 kg = 1,000 mg) governs before and after, so no limit moves.
  await page.getByRole('button', { name: 'Evaluate', exact: true }).click();
  await page.getByText(/^Current: evaluated/).waitFor({ timeout: 20_000 });
  const why = page.getByRole('region', { name: 'Why the limits stay' });
  await why.getByText('No limit moves: why').waitFor();
  await why
    .getByRole('cell', {
      name: 'Health-based 25,000 mg → 12,500 mg; general limit 1,000 mg still governs',
    })
    .waitFor();
  expect(await why.locator('tbody tr.ant-table-row').count()).toBe(1);
  const impact = page.getByRole('region', { name: 'Impact' });
  expect(await impact.locator('tbody tr.ant-table-row').count()).toBe(0);
});

it('an edited staged change keeps the moment it was staged and says when it was edited', async () => {
  // The staged change of the test before: Alpha's PDE, 0.1 → 0.05.
  const region = page.getByRole('region', { name: 'Staged changes' });
  const row = region.locator('tbody tr.ant-table-row').first();
  const column = (await region.locator('thead th').allTextContents()).indexOf('Staged');
  expect(column).toBeGreaterThan(-1);
  const stagedCell = row.locator('td').nth(column);
  const stagedAt = (await stagedCell.textContent()) ?? '';
  expect(stagedAt).not.toContain('edited');
  await row.getByRole('button', { name: 'Edit', exact: true }).click();
  const form = openDrawer(page);
  await form.getByText("Stage: edit active 'Alpha'").waitFor();
  const field = form.getByLabel('PDE/ADE', { exact: true });
  await expect.poll(() => field.inputValue()).toBe('0.05');
  await field.fill('0.04');
  await page.getByRole('button', { name: 'Stage change', exact: true }).click();
  await stageWithReason(page, 'The monograph was corrected');
  await expect.poll(() => stagedCell.textContent()).toContain(`${stagedAt}, edited `);
});

it('an edit of the header after another user changed it (a live update) is a conflict, not saved over it', async () => {
  await newAssessment('Gasket material of the blender', 'Policy change');
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  const api = (method: string, body?: unknown) =>
    browserApi(app, F)(page, method, `/change-assessments/${id}`, body);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const header = openModal(page);
  await header.getByLabel('Title').fill('Gasket material of the blender, as I read it');
  await header.getByLabel('Reason').fill('Title made precise');
  // Another user retitles it meanwhile; the screen reads the assessment again while the dialog
  // is open, and the dialog must still save from the version it opened on.
  const now = (await api('GET')).changeAssessment as Record<string, unknown>;
  await changeArrivingLive(page, `/change-assessments/${id}`, () =>
    api('POST', {
      title: 'Gasket material, retitled by QA',
      changeType: now.changeType,
      description: now.description,
      mocId: now.mocId,
      reason: 'Retitled by QA',
      version: now.version,
    }),
  );
  allowRefusedRequest(409, /\/change-assessments\/\d+/);
  await header.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Changed by someone else', { exact: true }).waitFor();
  expect(await header.getByLabel('Title').inputValue()).toBe(
    'Gasket material of the blender, as I read it',
  );
  expect(((await api('GET')).changeAssessment as Record<string, unknown>).title).toBe(
    'Gasket material, retitled by QA',
  );
});
