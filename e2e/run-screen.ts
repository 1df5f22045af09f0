import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestBody } from '#server/test/facility-test-file.ts';
import { fillDateTime } from './ui.ts';

/*
 * A verification run entered on its run screen as the people at the line enter it: the cleaning
 * event, the visual inspection and, at every planned location, the sample taken and its result.
 */

/** Records the run's cleaning event, its moments typed in the facility's own format. */
export async function recordCleaningEvent(
  page: Page,
  event: { started: string; ended: string; dirtyHoldHours: number; reason: string },
): Promise<void> {
  const form = page.locator('form#cleaning-event');
  await fillDateTime(form.getByLabel('Cleaning started'), event.started);
  await fillDateTime(form.getByLabel('Cleaning ended'), event.ended);
  await form.getByLabel(/^Dirty hold reached/).fill(String(event.dirtyHoldHours));
  await form.getByLabel('Reason').fill(event.reason);
  await form.getByRole('button', { name: 'Save cleaning event' }).click();
  await expect.poll(() => page.getByTestId('run-status').textContent()).toBe('In progress');
}

/**
 * Fills the visual inspection, every item of the pinned checklist and the result Pass, at `lux`
 * at the surface, and records it (the caller waits for what follows: a Pass, or a refusal).
 */
export async function recordPassInspection(
  page: Page,
  checklist: readonly TestBody[],
  lux: number,
): Promise<void> {
  const inspection = page.locator('form#inspection');
  await inspection.getByLabel(/^Light at the surface/).fill(String(lux));
  for (const item of checklist) {
    await inspection
      .getByLabel(item.item as string, { exact: true })
      .getByText('Pass')
      .click();
  }
  await inspection.getByLabel('Inspection result', { exact: true }).getByText('Pass').click();
  await inspection.getByRole('button', { name: 'Record inspection' }).click();
}

/**
 * At every planned swab location, a value at `times` × its limit and the sample's own number,
 * each judged in the preview as it is typed (the recovery the server will apply divides it).
 */
export async function enterPlanResults(
  page: Page,
  plan: readonly TestBody[],
  times: number,
  sampleNumber: (row: TestBody) => string,
): Promise<void> {
  for (const row of plan) {
    const percent = (100 * times) / (row.recovery as number);
    const label = `${row.samplingLocationName as string} (Swab)`;
    const card = page.locator(`[aria-label="Location ${label}"]`);
    await card.getByLabel(`Value of ${label}`).fill(String((row.limit as number) * times));
    await card.getByLabel(`Sample number of ${label}`).fill(sampleNumber(row));
    await expect
      .poll(() => card.getByTestId('judgement').textContent())
      .toBe(`Preview: Pass ${percent.toFixed(1)} % of limit`);
  }
}
