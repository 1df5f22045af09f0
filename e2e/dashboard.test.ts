import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { toxicityDistribution } from '#core/dashboard/toxicity-distribution.ts';
import type { Quantity } from '#core/units/quantity.ts';
import { seedDemo } from '#server/cli/seed-demo.ts';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { facilityApi, PLANT, openSignedIn } from './ui.ts';

let app: AppUnderTest;
let page: Page;
let facilityId: number;

beforeAll(async () => {
  app = await startAppUnderTest();
  facilityId = (await facilityApi(app)).id;
  await seedDemo(app.server.db, facilityId);
  page = await openSignedIn(app);
});
afterAll(async () => {
  await app?.close();
});

const tile = (title: string): Locator =>
  page.locator('.ant-card').filter({ has: page.getByText(title, { exact: true }) });

/** The value a bar of a tile's chart shows, read from the links listed under the chart. */
const barValue = (chart: string, label: string) =>
  page
    .getByRole('list', { name: chart })
    .getByRole('listitem')
    .filter({ hasText: label })
    .locator('.dashboard-bar-value')
    .innerText();

it('Home is the demo facility’s dashboard, and a tile opens the records behind it', async () => {
  await page.goto('/');
  await page.getByRole('heading', { name: `Where ${PLANT} stands` }).waitFor();

  // The demo data has master data but no cleaning assessment yet: that is the next step.
  const start = page.locator('.ant-card').filter({ hasText: 'Getting started' });
  await start.getByRole('link', { name: 'Start a cleaning assessment' }).waitFor();
  expect(await start.getByText('Add the actives').count()).toBe(0);

  // No study covers any equipment yet.
  const [equipment] = await app.server.db.query<{ n: number }>(
    'select count(*)::int as n from equipment where facility_id = $1 and archived_at is null',
    [facilityId],
  );
  expect(equipment!.n).toBeGreaterThan(0);
  await expect
    .poll(() => barValue('Equipment by validation status', 'Not covered'))
    .toBe(String(equipment!.n));
  expect(await barValue('Equipment by validation status', 'Validated')).toBe('0');
  // Issue 30: the limit tracker dates each move as the facility writes dates, never as ISO.
  const tracker = tile('MAC limit tracker');
  await tracker.getByText(/^Limits that moved in the last/).waitFor();
  expect(await tracker.innerText()).not.toMatch(/\d{4}-\d{2}-\d{2}/);

  // The chart is ECharts' SVG, named by its numbers; clicking a bar opens the records behind it.
  // The Not covered bar (the 5th row, the longest: every item) opens the cleaning assessments,
  // where the first assessment finds the gaps.
  const chart = page.getByRole('img', { name: /^Equipment by validation status: Validated 0/ });
  await chart.locator('svg text', { hasText: 'Not covered' }).waitFor();
  const box = (await chart.boundingBox())!;
  const rowHeight = (box.height - 16) / 5;
  // ECharts grows its bars in: a click while the bar is still short meets the empty grid and
  // does nothing. Clicked again only while the page is still the dashboard.
  const assessments = /\/cleaning-assessments$/;
  for (let i = 0; i < 5 && !assessments.test(page.url()); i += 1) {
    await page.mouse.click(box.x + box.width * 0.7, box.y + 8 + rowHeight * 4.5);
    await page.waitForURL(assessments, { timeout: 3000 }).catch(() => undefined);
  }
  await page.waitForURL(assessments);
  await page.goBack();

  // The same bars as links for the keyboard: Overdue lists the overdue studies (none yet).
  await tile('Equipment validation status')
    .getByRole('list', { name: 'Equipment by validation status' })
    .getByRole('link', { name: 'Overdue' })
    .click();
  await page.waitForURL(/\/studies\?overdue=true$/);
  await page.getByText('No study is overdue for its periodic verification').waitFor();
  await page.goBack();
  await page.getByRole('heading', { name: `Where ${PLANT} stands` }).waitFor();

  // The toxicity chart counts the demo actives by the PDE bands of the worst-case ranking.
  const pdes = await app.server.db.query<{ pde: Quantity<string> | null }>(
    'select pde from actives where facility_id = $1 and archived_at is null',
    [facilityId],
  );
  const expected = toxicityDistribution(pdes.map((row) => row.pde));
  const band4 = expected.bands.find((band) => band.score === 4)!;
  await expect
    .poll(() => barValue('Actives by toxicity score', `4 · ${band4.label}`))
    .toBe(String(band4.count));

  await tile('Toxicity score of the actives')
    .getByRole('link', { name: 'Open the records' })
    .click();
  await page.waitForURL(/\/master-data\/apis$/);
  // The list is in name order: its first page starts with the first active by name.
  const [first] = await app.server.db.query<{ name: string }>(
    `select name from actives where facility_id = $1 and archived_at is null
      order by lower(name), id limit 1`,
    [facilityId],
  );
  await page.getByRole('cell', { name: first!.name, exact: true }).waitFor();
});

it('feedback sent from a screen is listed for administrators with that screen', async () => {
  await page.getByRole('button', { name: 'Feedback' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send feedback' });
  await dialog.getByRole('button', { name: 'Send' }).click();
  await dialog.getByText('Please describe your feedback').waitFor();
  await dialog.getByLabel('Your feedback').fill('Please show the PDE source in the actives list');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await page.getByText('Thank you, your feedback was sent.').waitFor();

  await page.goto('/feedback');
  await page.getByRole('heading', { name: 'Feedback', exact: true }).waitFor();
  const row = page
    .getByRole('row')
    .filter({ hasText: 'Please show the PDE source in the actives list' });
  await row.waitFor();
  expect(await row.innerText()).toContain('/master-data/apis');
});
