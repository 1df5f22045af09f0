import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatDate } from '#core/datetime/format-date-time.ts';
import { formatQuantity } from '#core/units/format-number.ts';
import type { TestBody } from '#server/test/facility-test-file.ts';
import { ADMIN } from '#server/test/test-server.ts';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { browserApi, runKitOnApp } from './run-kit-app.ts';
import { changeArrivingLive, choose, openModal, openSignedIn } from './ui.ts';
import { allowRefusedRequest } from './browser-errors.ts';

/*
 * Issue 12, the run screen beyond entry: a saved result corrected with a reason (its new
 * judgement shown; a version conflict said, with what was typed kept for the retry), the
 * sampling time entered on the facility's clock in its formats, deviations closed to a
 * submitted run, nothing cut off at 1280 px; and the statistics page's date range, kept in the
 * address.
 */

let app: AppUnderTest;
let kit: Awaited<ReturnType<typeof runKitOnApp>>['kit'];
let session: { token: string };
let F: string;
// A plant in India, dates day first, a 12-hour clock: the picker must type and save in these.
const SETTINGS = {
  timezone: 'Asia/Kolkata',
  dateFormat: 'DD-MM-YYYY',
  timeFormat: 'hh:mm',
  country: 'IN',
} as const;

beforeAll(async () => {
  app = await startAppUnderTest();
  ({ kit, session, F } = await runKitOnApp(app));
});
afterAll(async () => {
  await app?.close();
});

/** A call as the browser's session (the administrator signed in there). */
const api = (page: Page, method: string, path: string, body?: unknown) =>
  browserApi(app, F)(page, method, path, body);

/** A run of a new study, its cleaning started and its visual inspection passed (API). */
/** The facility's date and time settings, edited from the version they have now. */
async function setDateTimeSettings(reason: string): Promise<void> {
  const read = await kit.call('GET', '/date-time-settings');
  const { version } = read.body.dateTimeSettings as TestBody;
  const res = await kit.call('POST', '/date-time-settings', {
    dateTimeSettings: SETTINGS,
    version,
    reason,
  });
  // The second test finds them set already by the first.
  if (res.status !== 200) expect(res.body.errName).toBe('NothingToChangeError');
}

async function startedRun(): Promise<TestBody> {
  session.token = await app.server.login();
  const studyId = await kit.study();
  return kit.inspectedRun(studyId, '2026-11-02T08:00:00Z');
}

async function openRun(run: TestBody): Promise<Page> {
  const page = await openSignedIn(app);
  await page.goto(`/runs/${run.id as number}`);
  await page.getByRole('heading', { name: `Run ${run.sequence as number}` }).waitFor();
  return page;
}

const planRow = (run: TestBody, name: string) =>
  (run.plan as TestBody[]).find((row) => row.samplingLocationName === name)!;

it('corrects a saved result on the run screen: the new judgement shown; a conflict keeps what was typed', async () => {
  allowRefusedRequest(409, /\/results\/\d+/);
  const run = await startedRun();
  const valve = planRow(run, 'Valve');
  const gasket = planRow(run, 'Gasket');
  const entered = await kit.results(run, [
    kit.row(run, valve.samplingLocationId as number, 0.2),
    kit.row(run, gasket.samplingLocationId as number, 0.2),
  ]);
  expect(entered.status, JSON.stringify(entered.body)).toBe(200);
  const page = await openRun(run);
  // Issue 30: the plan's limit at the facility's significant digits, never its 17 digits or
  // e-notation anywhere on the run page.
  await page
    .locator('[aria-label="Location Valve (Swab)"]')
    .getByText(formatQuantity(valve.limit as number, valve.limitUnit as string), { exact: true })
    .waitFor();
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(/(?<![\w.])\d+(?:\.\d+)?e[-+]?\d+(?!\w)/i);
  expect(text).not.toMatch(/\d\.\d{10,}/);

  // The valve's steel recovers 80 %: 1.2 × the limit is 150 % of it once corrected for recovery.
  const valveCard = page.locator('[aria-label="Location Valve (Swab)"]');
  await expect
    .poll(() => valveCard.getByTestId('judgement').textContent())
    .toBe('Pass 25.0 % of limit');
  await valveCard.getByRole('button', { name: 'Correct', exact: true }).click();
  const dialog = openModal(page);
  await dialog
    .getByLabel('Value of the correction of Valve (Swab)')
    .fill(String((valve.limit as number) * 1.2));
  await expect
    .poll(() => dialog.getByTestId('judgement').textContent())
    .toBe('Preview: Fail 150.0 % of limit');
  await dialog.getByRole('button', { name: 'Save the correction' }).click();
  await dialog.getByText('A reason is required').waitFor();
  await dialog.getByLabel('Reason').fill('Transcribed from the wrong lab sheet');
  await dialog.getByRole('button', { name: 'Save the correction' }).click();
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  await expect
    .poll(() => valveCard.getByTestId('judgement').textContent())
    .toBe('Fail 150.0 % of limit');
  await expect.poll(() => page.getByTestId('run-verdict').textContent()).toBe('Verdict: Fail');
  const audit = await app.server.db.query<{ reason: string }>(
    `select reason from audit_log where domain = 'SampleResult' and action = 'Update'
      order by id desc limit 1`,
  );
  expect(audit[0]?.reason).toBe('Transcribed from the wrong lab sheet');

  // Someone corrects the gasket while the dialog is open: the save is refused (409), said, and
  // the dialog keeps the value and reason typed; the run reloads and the retry carries its version.
  const gasketCard = page.locator('[aria-label="Location Gasket (Swab)"]');
  await gasketCard.getByRole('button', { name: 'Correct', exact: true }).click();
  const conflicted = openModal(page);
  const value = conflicted.getByLabel('Value of the correction of Gasket (Swab)');
  const typed = (gasket.limit as number) * 0.4;
  await value.fill(String(typed));
  await conflicted.getByLabel('Reason').fill('Dilution factor missed');
  const now = (await api(page, 'GET', `/runs/${run.id as number}`)).run as TestBody;
  const other = (now.results as TestBody[]).find(
    (r) => r.samplingLocationId === gasket.samplingLocationId,
  )!;
  // The other correction reaches this screen as a live update: the run is read again while the
  // dialog is open, and the dialog must still save from the version it opened on.
  await changeArrivingLive(page, `/runs/${run.id as number}`, () =>
    api(page, 'POST', `/results/${other.id as number}`, {
      rawValue: (gasket.limit as number) * 0.3,
      reason: 'Corrected at the lab',
      version: other.version,
    }),
  );
  const reloaded = page.waitForResponse(
    (res) => res.request().method() === 'GET' && res.url().endsWith(`/runs/${run.id as number}`),
  );
  await conflicted.getByRole('button', { name: 'Save the correction' }).click();
  await page.getByText('Changed by someone else', { exact: true }).waitFor();
  await reloaded;
  expect(Number(await value.inputValue())).toBeCloseTo(typed, 9);
  expect(await conflicted.getByLabel('Reason').inputValue()).toBe('Dilution factor missed');
  await conflicted.getByRole('button', { name: 'Save the correction' }).click();
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  await expect
    .poll(() => gasketCard.getByTestId('judgement').textContent())
    .toBe('Pass 40.0 % of limit');
});

it('records the product batch of the cleaning event on the run page, apart from the samples’ own numbers', async () => {
  const run = await startedRun();
  const page = await openRun(run);
  // Issue 30: a sample's own number is called so; the sample type reads as a word.
  const valveCard = page.locator('[aria-label="Location Valve (Swab)"]');
  await valveCard.getByLabel('Sample number of Valve (Swab)').waitFor();
  const text = await page.locator('main').innerText();
  expect(text).not.toContain('Batch number');
  expect(text).not.toContain('(swab)');

  const event = page.locator('#cleaning-event');
  await event.getByLabel('Product batch').fill('PB-2026-117');
  await event.getByLabel('Reason').fill('Batch made before the cleaning');
  await event.getByRole('button', { name: 'Save cleaning event' }).click();
  await expect
    .poll(
      async () =>
        ((await api(page, 'GET', `/runs/${run.id as number}`)).run as TestBody).event as TestBody,
    )
    .toMatchObject({ productBatch: 'PB-2026-117' });
  const [audit] = await app.server.db.query<{ reason: string; new_values: TestBody }>(
    `select reason, new_values from audit_log where domain = 'Run' and entity_id = $1
      order by id desc limit 1`,
    [String(run.id)],
  );
  expect(audit).toMatchObject({
    reason: 'Batch made before the cleaning',
    new_values: { productBatch: 'PB-2026-117' },
  });
  await page.reload();
  await expect
    .poll(() => page.locator('#cleaning-event').getByLabel('Product batch').inputValue())
    .toBe('PB-2026-117');
});

it('names the run and the corrected entry in the equipment logbook by what a person recognises', async () => {
  const run = await startedRun();
  const [e1] = await app.server.db.query<{ id: number; name: string }>(
    `select e.id, e.name from equipment e join sampling_locations l on l.equipment_id = e.id
      where l.id = $1`,
    [(run.plan as TestBody[])[0]!.samplingLocationId],
  );
  const log = `/equipment/${e1!.id}/logbook`;
  // A retry finds the item's cleaning started already by the first attempt.
  const started = await kit.call('POST', log, { event: 'CleaningStarted' });
  if (started.status !== 200) expect(started.body.message).toMatch(/follow the state Cleaning$/);
  const study = (await kit.ok('GET', `/studies/${run.studyId as number}`)) as TestBody;
  const page = await openSignedIn(app);
  await page.goto('/equipment-status');
  // The cleaning's run is picked by its study and number, never typed as an id.
  const card = page.getByLabel(`Equipment ${e1!.name}`);
  await card.getByRole('button', { name: 'Record' }).click();
  const record = openModal(page);
  await choose(record.getByLabel('Event'), 'Cleaning ended');
  await choose(
    record.getByLabel('Study of the verification run'),
    `${study.number as string} · ${study.title as string}`,
  );
  await choose(
    record.getByLabel('Verification run', { exact: true }),
    `Run ${run.sequence as number}`,
  );
  await record.getByRole('button', { name: 'Record' }).click();
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  await card.getByRole('button', { name: 'Logbook' }).click();
  const drawer = page.locator('.ant-drawer-open');
  const ended = drawer.getByRole('row').filter({ hasText: 'Cleaning ended' });
  await ended
    .getByText(`Verification run ${run.studyNumber as string} run ${run.sequence as number}`)
    .waitFor();
  await ended.getByRole('button', { name: 'Correct' }).click();
  const dialog = openModal(page);
  await dialog.getByLabel('Reason').fill('Recorded on the wrong item');
  await dialog.getByRole('button', { name: 'Correct' }).click();
  await drawer
    .getByText(/^Recorded on the wrong item; Corrects the Cleaning ended entry of .+/)
    .waitFor();
  await ended.getByText(/Corrected on .+/).waitFor();
  // Never an entry's or a run's database id.
  expect(await drawer.innerText()).not.toMatch(/entry \d+|Run \d+(?!\d)|#\d/);
});

it('enters the sampling time on the facility clock and formats; a submitted run takes no deviation; nothing is cut off at 1280 px', async () => {
  const run = await startedRun();
  await setDateTimeSettings('Site in India');
  const page = await openRun(run);
  await page.setViewportSize({ width: 1280, height: 900 });

  // Each row starts at now on the plant's clock, written as the plant writes dates.
  const valve = planRow(run, 'Valve');
  const gasket = planRow(run, 'Gasket');
  const valveCard = page.locator('[aria-label="Location Valve (Swab)"]');
  const gasketCard = page.locator('[aria-label="Location Gasket (Swab)"]');
  const sampledAt = valveCard.getByLabel('Sampling time of Valve (Swab)');
  await expect
    .poll(() => sampledAt.inputValue())
    .toMatch(new RegExp(`^${formatDate(new Date(), SETTINGS)} \\d{2}:\\d{2} (AM|PM)$`));
  await sampledAt.click();
  await sampledAt.fill('02-11-2026 03:30 PM');
  await sampledAt.press('Enter');
  await expect.poll(() => sampledAt.inputValue()).toBe('02-11-2026 03:30 PM');
  for (const [card, row] of [
    [valveCard, valve],
    [gasketCard, gasket],
  ] as const) {
    const label = `${row.samplingLocationName as string} (Swab)`;
    await card.getByLabel(`Value of ${label}`).fill(String((row.limit as number) * 0.2));
    await card.getByLabel(`Sample number of ${label}`).fill(`T-${run.id as number}-${label}`);
  }
  const before = Date.now();
  await page.getByRole('button', { name: 'Save results' }).click();
  await expect.poll(() => page.getByTestId('run-verdict').textContent()).toBe('Verdict: Pass');
  // 15:30 in Kolkata (UTC+05:30) is 10:00 UTC; the row left alone was taken when it opened.
  await valveCard.getByText('Sampled 02-11-2026 03:30 PM').waitFor();
  const saved = ((await api(page, 'GET', `/runs/${run.id as number}`)).run as TestBody)
    .results as TestBody[];
  const takenAt = (row: TestBody) =>
    saved.find((r) => r.samplingLocationId === row.samplingLocationId)!.takenAt as string;
  expect(takenAt(valve)).toBe('2026-11-02T10:00:00.000Z');
  expect(before - Date.parse(takenAt(gasket))).toBeGreaterThanOrEqual(0);
  expect(before - Date.parse(takenAt(gasket))).toBeLessThan(10 * 60_000);

  // At 1280 px wide nothing of the run screen runs past the window's right edge.
  const cut = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll('main *')]
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && box.right > width + 1;
      })
      .map((el) => `${el.tagName}.${el.className}: ${el.textContent?.slice(0, 40)}`);
  });
  expect(cut).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);

  // Deviations are raised on an open run only: once submitted, the server would refuse them.
  await page.getByRole('button', { name: 'Add deviation' }).waitFor();
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  const sign = openModal(page);
  await expect.poll(() => sign.getByLabel('Meaning').inputValue()).not.toBe('');
  await sign.getByLabel('Password').fill(ADMIN.password);
  await sign.getByRole('button', { name: 'Sign and submit' }).click();
  await expect.poll(() => page.getByTestId('run-status').textContent()).toBe('Being approved');
  expect(await page.getByRole('button', { name: 'Add deviation' }).count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Correct', exact: true }).count()).toBe(0);
});

it('filters the statistics by a date range kept in the address', async () => {
  // The test's own sign-in through the API ends the browser's session.
  allowRefusedRequest(419, /\/signatures\/pending/);
  // A result sampled on 2 November, entered through the API.
  const run = await startedRun();
  await setDateTimeSettings('India');
  const valve = planRow(run, 'Valve');
  const gasket = planRow(run, 'Gasket');
  const entered = await kit.results(run, [
    kit.row(run, valve.samplingLocationId as number, 0.2, { takenAt: '2026-11-02T10:00:00Z' }),
    // Above the alert level: its alert names the day as the plant writes dates.
    kit.row(run, gasket.samplingLocationId as number, 0.7, { takenAt: '2026-11-02T11:00:00Z' }),
  ]);
  expect(entered.status, JSON.stringify(entered.body)).toBe(200);
  const equipmentId = ((entered.body.run as TestBody).results as TestBody[])[0]!
    .equipmentId as number;
  const page = await openSignedIn(app);
  const count = async (range: string) =>
    (
      await api(
        page,
        'GET',
        `/verification/statistics?groupBy=equipment&key=${equipmentId}${range}`,
      )
    ).statistics.count as number;
  const all = await count('');
  const inRange = await count('&from=2026-11-01&to=2026-11-03');
  expect(inRange).toBeGreaterThan(0);
  expect(inRange).toBeLessThan(all);

  await page.goto(`/verification?groupBy=equipment&key=${equipmentId}`);
  const individuals = page.getByRole('img', { name: /^Individuals/ });
  await expect
    .poll(() => individuals.getAttribute('aria-label'))
    .toMatch(new RegExp(`: ${all} results,`));
  // Typed in the facility's date format, day first.
  const from = page.getByPlaceholder('From');
  await from.click();
  await from.fill('01-11-2026');
  await from.press('Enter');
  await page.getByPlaceholder('To').fill('03-11-2026');
  await page.getByPlaceholder('To').press('Enter');
  await expect.poll(() => new URL(page.url()).searchParams.get('from')).toBe('2026-11-01');
  expect(new URL(page.url()).searchParams.get('to')).toBe('2026-11-03');
  await expect
    .poll(() => individuals.getAttribute('aria-label'))
    .toMatch(new RegExp(`: ${inRange} results,`));
  await page.reload();
  await expect
    .poll(() => individuals.getAttribute('aria-label'))
    .toMatch(new RegExp(`: ${inRange} results,`));
  expect(await from.inputValue()).toBe('01-11-2026');
  // Issue 30: the alert's message gives the day in the facility's format, never as ISO.
  const alerts = page.getByLabel('Alerts');
  await alerts
    .getByText(`on ${formatDate('2026-11-02T11:00:00Z', SETTINGS)}`)
    .first()
    .waitFor();
  expect(await alerts.innerText()).not.toMatch(/\d{4}-\d{2}-\d{2}/);
});
