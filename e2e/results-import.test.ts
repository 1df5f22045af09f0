import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestBody } from '#server/test/facility-test-file.ts';
import { runName } from '#server/modules/verification/runs/runs.read.ts';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { runKitOnApp } from './run-kit-app.ts';
import { choose, openDrawer, openSignedIn } from './ui.ts';

/*
 * Issue 33, results from the laboratory in the browser: from the run screen to the import
 * screen, a laboratory's mapping made there, a file with a problem previewed with its row and
 * column (nothing to import), then a clean file previewed with the run screen's judgements and
 * imported; the results then stand on the run with who analysed them and when.
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

const HEADER = 'Run,Point,Sample,Reported,Value,Units,Analysed,Analyst';

const ANALYSED = '2026-11-03T10:30:00Z,A. Analyst';

async function chooseFile(page: Page, name: string, text: string): Promise<void> {
  await page
    .locator('input[type=file]')
    .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
}

it('previews a laboratory file with its judgements and problems, then imports it onto the run', async () => {
  session.token = await app.server.login();
  const studyId = await kit.study();
  const run = await kit.inspectedRun(studyId, '2026-11-02T08:00:00Z');
  const [study] = await app.server.db.query<{ seq: number }>(
    'select seq from studies where id = $1',
    [studyId],
  );
  const name = runName(study!.seq, run.sequence as number);
  const limit = (location: string) =>
    (run.plan as TestBody[]).find((p) => p.samplingLocationName === location)!.limit as number;

  // A retry of the test makes its own mapping and samples: names and sample numbers are unique.
  const tag = String(Date.now() % 1_000_000);
  const mappingName = `QC LIMS ${tag}`;
  const s1 = `S-${tag}-1`;
  const s2 = `S-${tag}-2`;
  const page = await openSignedIn(app, `/runs/${run.id as number}`);
  await page.getByRole('heading', { name: `Run ${run.sequence as number}` }).waitFor();
  await page.getByRole('link', { name: 'Import results from the laboratory' }).click();
  await page.getByRole('heading', { name: 'Import results from the laboratory' }).waitFor();

  // The laboratory's mapping, made on this screen.
  await page.getByRole('button', { name: 'New mapping' }).click();
  const drawer = openDrawer(page);
  const fill = (label: string, value: string) =>
    drawer.getByLabel(label, { exact: true }).fill(value);
  await fill('Name', mappingName);
  await fill('Laboratory', 'QC laboratory');
  await fill('Run column', 'Run');
  await fill('Location column', 'Point');
  await fill('Sample number column', 'Sample');
  await fill('Reported column', 'Reported');
  await fill('Value column', 'Value');
  await fill('Unit column', 'Units');
  await fill('Analysed at column', 'Analysed');
  await fill('Analyst column', 'Analyst');
  await drawer.getByRole('button', { name: 'Add import mapping' }).click();
  await expect.poll(() => page.locator('.ant-drawer-open').count(), { timeout: 30_000 }).toBe(0);
  await choose(
    page.getByRole('combobox', { name: 'Column mapping' }),
    `${mappingName} (QC laboratory)`,
  );

  // A file with a problem: shown by row and column, and nothing to import.
  await chooseFile(
    page,
    'bad.csv',
    [
      HEADER,
      `${name},Valve,${s1},=,${limit('Valve') * 0.2},mg/swab,${ANALYSED}`,
      `${name},Valve,${s2},~,1,mg/swab,${ANALYSED}`,
    ].join('\n'),
  );
  const preview = page.getByRole('region', { name: 'Preview' });
  const problems = preview.getByRole('table', { name: 'Problems' });
  await problems.getByText('Reported is one of =, < LOD, < LOQ, > upper limit').waitFor();
  const problemRow = await problems
    .locator('.ant-table-tbody tr.ant-table-row td')
    .allTextContents();
  expect(problemRow.slice(0, 2)).toEqual(['3', 'Reported']);
  await expect.poll(() => preview.getByRole('button', { name: /^Import/ }).isDisabled()).toBe(true);

  // A clean file: a pass, a fail and a censored result, each judged as on the run screen.
  await chooseFile(
    page,
    'lab.csv',
    [
      HEADER,
      `${name},Valve,${s1},=,${limit('Valve') * 0.2},mg/swab,${ANALYSED}`,
      `${name},Gasket,${s2},< LOQ,${limit('Gasket') * 0.1},mg/swab,${ANALYSED}`,
    ].join('\n'),
  );
  await preview.getByRole('table', { name: 'Problems' }).waitFor({ state: 'detached' });
  const rows = preview.getByRole('table', { name: 'Results in the file' });
  await rows.getByText(s2).waitFor();
  const judgements = await rows.getByTestId('judgement').allTextContents();
  expect(judgements).toHaveLength(2);
  expect(judgements[0]).toMatch(/^Pass 25\.0 % of limit/);
  expect(judgements[1]).toMatch(/^Pass ≤ /);
  await preview.getByRole('button', { name: 'Import 2 results' }).click();
  await preview.getByText('Imported lab.csv: 2 results entered, 0 already entered').waitFor();

  const entered = await app.server.db.query<{ batch_number: string; censoring: string }>(
    'select batch_number, censoring from sample_results where run_id = $1 order by id',
    [run.id],
  );
  expect(entered).toEqual([
    { batch_number: s1, censoring: '=' },
    { batch_number: s2, censoring: '< LOQ' },
  ]);
  await page.goto(`/runs/${run.id as number}`);
  await page.getByRole('heading', { name: `Run ${run.sequence as number}` }).waitFor();
  await page.getByText(s2).first().waitFor();
  // Who analysed each sample, and when, stand with its result.
  const valve = page.getByLabel('Location Valve (Swab)');
  await valve.getByText('Analyst A. Analyst').waitFor();
  await valve.getByText(/^Analysed at /).waitFor();
});
