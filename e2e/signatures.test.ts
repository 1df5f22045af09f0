import { expectWords } from './words.ts';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { readPdfText } from '#server/test/read-pdf-text.ts';
import { ADMIN } from '#server/test/test-server.ts';
import { signIn, startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import {
  choose,
  confirmWithReason,
  facilityRecords,
  facilityApi,
  openDrawer,
  openFromMyApprovals,
  openSignedIn,
  signInDialog,
} from './ui.ts';
import { allowRefusedRequest } from './browser-errors.ts';

let app: AppUnderTest;

beforeAll(async () => {
  app = await startAppUnderTest();
});
afterAll(async () => {
  await app?.close();
});

/** Signs the action in the sign dialog with the signer's password. */
async function sign(page: Page, action: string, password: string): Promise<void> {
  await openDrawer(page).getByRole('button', { name: action, exact: true }).click();
  await signInDialog(page, action, password);
  await expect.poll(() => page.getByRole('dialog').count(), { timeout: 10_000 }).toBe(1);
}

const statusTag = (page: Page) => openDrawer(page).getByTestId('record-status');

/** The printed name a signature carries: the signer's full name. */
async function fullName(where: { email: string } | { id: number }): Promise<string> {
  const [user] = await app.server.db.query<{ name: string }>(
    `select first_name || ' ' || last_name as name from users where ${'email' in where ? 'email' : 'id'} = $1`,
    ['email' in where ? where.email : where.id],
  );
  return user!.name;
}

describe('an SOP submitted by one user and approved by another', () => {
  it('reads Active and lists both signatures', async () => {
    const facility = await facilityApi(app);
    // Unique per attempt: a retry runs on the same database.
    const sopNumber = `SOP-CLN-${Date.now()}`;
    const create = await facilityRecords(app, facility.path);
    const procedure = `Granulator wash ${Date.now()}`;
    const procedureId = await create('cleaning-procedure', { name: procedure });
    const sopId = await create('sop', {
      sopNumber,
      name: 'Cleaning of the granulator',
      cleaningProcedureIds: [procedureId],
    });
    const approver = await buildUser(app.server.db, {
      facilityIds: [facility.id],
      permissions: permissionsWith({
        ApprovalPolicy: ['Get', 'Sign'],
        CleaningProcedure: ['Get'],
      }),
    });

    // The administrator may modify SOPs: they submit it.
    const submitter = await openSignedIn(app, `/master-data/sop?record=${sopId}`);
    await expect.poll(() => statusTag(submitter).textContent()).toBe('Being Built');
    // Never approved: the record is its draft, version 1.
    await openDrawer(submitter).getByText('Draft version 1 — not in force').waitFor();
    await sign(submitter, 'Submit', ADMIN.password);
    // The default policy has one Approver step: the SOP waits for its approval.
    await expect.poll(() => statusTag(submitter).textContent()).toBe('Being approved');
    // The submitter may sign (an administrator) but not approve their own submission: no Approve
    // or Reject is offered, and the record says whose signature it waits for and why.
    await openDrawer(submitter)
      .getByTestId('sign-waiting-for-others')
      .getByText(/you signed another step of this version/)
      .waitFor();
    const offered = openDrawer(submitter).locator('[aria-label="Controlled record"]');
    expect(await offered.getByRole('button', { name: /^(Approve|Reject)$/ }).count()).toBe(0);

    // The approver finds it under My approvals, counted in the navigation, and approves it.
    // A retry leaves the first attempt's SOP waiting too: the count is what the API lists.
    const waiting = await app.server.request<{ items: unknown[] }>(
      'GET',
      `${facility.path}/signatures/pending`,
      { token: await app.server.login(approver.username, approver.password) },
    );
    const second = await app.open('/');
    // One facility granted: the sign-in enters it without asking.
    await signIn(second, approver.username, approver.password);
    await second.getByRole('button', { name: 'Logout' }).waitFor();
    const nav = second.getByRole('navigation', { name: 'Main' });
    const myApprovals = nav.getByRole('link', { name: /My approvals/ });
    await expect
      .poll(() => myApprovals.textContent())
      .toBe(`My approvals${waiting.body.items.length}`);
    await openFromMyApprovals(second, new RegExp(sopNumber));
    await expect.poll(() => statusTag(second).textContent()).toBe('Being approved');
    await sign(second, 'Approve', approver.password);
    await expect.poll(() => statusTag(second).textContent()).toBe('Active');

    const signatures = openDrawer(second).getByRole('region', { name: 'Signatures' });
    const rows = signatures.locator('tbody tr.ant-table-row');
    await expect.poll(() => rows.count()).toBe(2);
    const texts = await rows.allTextContents();
    expect(texts[0]).toContain(await fullName({ email: ADMIN.email }));
    expect(texts[0]).toContain('Submitted for review');
    expect(texts[1]).toContain(await fullName({ id: approver.id }));
    expect(texts[1]).toContain('Approver');
    expect(texts.every((text) => text.includes('Valid'))).toBe(true);

    // References read as names, as in the master-data lists.
    const procedures = openDrawer(second).locator('.ant-descriptions-row', {
      hasText: 'Cleaning procedures',
    });
    await expect.poll(() => procedures.textContent()).toContain(procedure);

    // Print (PDF): the version with both signers' names, UTC times and meanings (ES-1).
    const [download] = await Promise.all([
      second.waitForEvent('download'),
      openDrawer(second).getByRole('button', { name: 'Print (PDF)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${sopNumber} Cleaning of the granulator v1.pdf`);
    const pdf = await readPdfText(new Uint8Array(readFileSync(await download.path())));
    const printed = pdf.text.replace(/\s+/g, ' ');
    const listed = await app.server.request<{ signatures: Record<string, string>[] }>(
      'GET',
      `${facility.path}/signatures?documentType=SOP&documentId=${sopId}`,
      // As the approver, whose page is done: a new sign-in ends a user's other session (the
      // administrator's UI sign-in ended the one the SOP was created with).
      { token: await app.server.login(approver.username, approver.password) },
    );
    expect(listed.body.signatures).toHaveLength(2);
    for (const signature of listed.body.signatures) {
      expect(printed).toContain(signature.printedName);
      // The moment in UTC as the manifest prints it: '2026-12-05 22:38:47.471'.
      expect(printed).toContain(String(signature.signedAt).replace('T', ' ').replace(/Z$/, ''));
      expect(printed).toContain(signature.meaning);
    }

    // Before an edit of the Active SOP, the form says what saving starts and what it will need.
    await submitter.goto('/master-data/sop');
    await submitter
      .getByRole('row', { name: new RegExp(sopNumber) })
      .getByRole('button', { name: 'Edit', exact: true })
      .click();
    const form = openDrawer(submitter);
    await form.getByText('Saving starts version 2 in Being Built').waitFor();
    await form.getByText(/It will then need one Approver signature/).waitFor();
    // The form edits the draft; with none in progress that is the version in force.
    await form.getByText('In force: version 1', { exact: true }).waitFor();
    await form.getByLabel('Title').fill('Cleaning of the granulator and its bowl');
    await submitter.getByRole('button', { name: 'Save', exact: true }).click();
    const reasonDialog = submitter.getByRole('dialog').last();
    await reasonDialog.getByLabel('Reason').fill('Bowl added to the scope');
    await reasonDialog.getByRole('button', { name: 'Save', exact: true }).click();
    await submitter.getByText(`SOP 'Cleaning of the granulator' saved`).waitFor();

    // The new version is being built; its history shows what changed, field by field.
    await submitter.goto(`/master-data/sop?record=${sopId}`);
    await expect.poll(() => statusTag(submitter).textContent()).toBe('Being Built');
    await openDrawer(submitter).getByText('Draft version 2 — not in force').waitFor();
    // The list answers the version in force: the approved title, Active, v1.
    const sopRow = submitter.locator('tr.ant-table-row', { hasText: sopNumber });
    await expect.poll(() => sopRow.textContent()).toMatch(/Cleaning of the granulator.*Active.*v1/);
    await expect.poll(() => sopRow.textContent()).not.toContain('its bowl');
    await openDrawer(submitter).getByRole('button', { name: 'Version history' }).click();
    const history = openDrawer(submitter);
    const versions = history.locator('tbody tr.ant-table-row');
    await expect.poll(() => versions.count()).toBeGreaterThan(1);
    await versions.first().getByRole('checkbox').check();
    await versions.last().getByRole('checkbox').check();
    const differences = history.getByRole('region', { name: 'Differences' });
    const titleRow = differences.locator('tr', { hasText: 'Title' });
    await expect
      .poll(() => titleRow.textContent())
      .toContain('Cleaning of the granulator and its bowl');
  });
});

describe('the approval policy editor', () => {
  it('saves a Reviewer step before the Approver step, with a reason, in the contract shape', async () => {
    // Another sign-in of the same user ends the browser's session: a live update's refetch of
    // the count or of the policy just then is refused.
    allowRefusedRequest(419, /\/signatures\/pending/);
    allowRefusedRequest(419, /\/approval_policies/);
    const facility = await facilityApi(app);
    const page = await openSignedIn(app, '/policies');
    await page.getByRole('tab', { name: 'Approval policies' }).click();
    const firstStep = page.locator('.ant-card-small', { hasText: 'Step 1' });
    await choose(firstStep.getByLabel('Signer role'), 'Reviewer');
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.locator('.ant-card-small', { hasText: 'Step 2' }).waitFor();
    await page.getByRole('button', { name: 'Save approval policy' }).click();
    await confirmWithReason(page, 'QA review before approval');
    // The form stays on screen: a second save goes from the version the first one made.
    await page.getByLabel('Allow self-approval').click();
    await page.getByRole('button', { name: 'Save approval policy' }).click();
    await confirmWithReason(page, 'One person may sign both steps');
    // Every document type is offered in words, and the one chosen reads as words (issue 30).
    await choose(page.getByLabel('Document type'), 'Change assessment');
    await page.getByRole('button', { name: 'Save approval policy' }).waitFor();
    await expectWords(page, 'approval policy of change assessments');

    const token = await app.server.login();
    const res = await app.server.request<{
      approvalPolicy: { steps: unknown[]; allowSelfApproval: boolean };
    }>('GET', `${facility.path}/approval_policies?documentType=SOP`, { token });
    expect(res.body.approvalPolicy.steps).toEqual([
      { order: 1, signerRole: 'Reviewer', roleIds: [], minSignatures: 1 },
      { order: 2, signerRole: 'Approver', roleIds: [], minSignatures: 1 },
    ]);
    expect(res.body.approvalPolicy.allowSelfApproval).toBe(true);
  });
});
