import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestBody } from '#server/test/facility-test-file.ts';
import { policyApprover } from '#server/test/policy-in-force.ts';
import { ADMIN } from '#server/test/test-server.ts';
import type { AppUnderTest } from './app-under-test.ts';
import { choose, openDrawer, openModal, signInDialog } from './ui.ts';

/*
 * A laboratory investigation on the run screen, as the sample and microbial results share it:
 * opened from the result's row, phase I written with an assignable laboratory cause, submitted
 * through the signature dialog; then approved by QA (FDA OOS guidance 2006/2022).
 */

export interface Findings {
  findings: string;
  cause: string;
  evidence: string;
  conclusion: string;
}

/** Opens the investigation from `where`, writes it and submits it; answers its drawer. */
export async function investigateAndSubmit(
  page: Page,
  where: Locator,
  found: Findings,
): Promise<Locator> {
  await where.getByRole('button', { name: 'Open investigation' }).click();
  const drawer = openDrawer(page);
  await drawer.getByText('Not decided').waitFor();
  await drawer.getByRole('button', { name: 'Write investigation' }).click();
  const form = openModal(page);
  await form.getByLabel('Findings').fill(found.findings);
  await form.getByLabel('Assignable laboratory cause (result invalidated)').check();
  await choose(form.getByRole('combobox', { name: 'Laboratory cause' }), found.cause);
  await form.getByLabel('Cause and evidence').fill(found.evidence);
  await form.getByLabel('Conclusion').fill(found.conclusion);
  await form.getByLabel('Reason').fill('Phase I findings');
  await form.getByRole('button', { name: 'Save investigation' }).click();
  await drawer.getByText(`${found.cause}: ${found.evidence}`).waitFor();
  await drawer.getByRole('button', { name: 'Submit', exact: true }).click();
  await signInDialog(page, 'submit', ADMIN.password);
  await expect
    .poll(() => drawer.getByTestId('record-status').textContent(), { timeout: 30_000 })
    .toBe('Being approved');
  return drawer;
}

/** QA approves the investigation: the submitter may not (the approval policy refuses it). */
export async function qaApproves(app: AppUnderTest, F: string, investigationId: number) {
  const qa = await policyApprover(app.server, F);
  const approved = await app.server.request<TestBody>('POST', `${F}/signatures`, {
    token: qa.token,
    body: {
      documentType: 'Investigation',
      documentId: investigationId,
      action: 'Approve',
      password: qa.password,
    },
  });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  expect(approved.body.signature.meaning).toBe('Approve investigation');
}
