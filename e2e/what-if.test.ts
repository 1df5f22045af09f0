import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppUnderTest, type AppUnderTest } from './app-under-test.ts';
import { choose, createViaApi, facilityApi, openSignedIn } from './ui.ts';
import { seedTwoProducts } from './two-products.ts';

let app: AppUnderTest;
let page: Page;
let F: string;
let facilityId: number;

async function seedSmallFacility(): Promise<void> {
  const token = await app.server.login();
  const create = (path: string, body: unknown) => createViaApi(app, token, `${F}/${path}`, body);
  await seedTwoProducts(create);
}

/** Product A's minimum batch size as stored, read from the database (no session needed). */
async function storedBatchSizeOfA(): Promise<unknown> {
  const [row] = await app.server.db.query<{ min_batch_size: unknown }>(
    `select min_batch_size from products where facility_id = $1 and name = 'A'`,
    [facilityId],
  );
  return row?.min_batch_size;
}

/** The server's MAC matrix, read with the browser's session. */
function serverMatrix() {
  return page.evaluate(async (path) => {
    const token = sessionStorage.getItem('token') ?? '';
    const res = await fetch(`${path}/mac-matrix`, { headers: { token } });
    return (await res.json()) as {
      pairs: { previous: string; next: string; maco: { value: number } }[];
    };
  }, F);
}

/** Opens the what-if drawer of the MAC matrix and answers it. */
async function openWhatIf(): Promise<Locator> {
  await page.getByRole('button', { name: 'What if…' }).click();
  const panel = page.locator('.ant-drawer-open');
  await panel.getByText('Nothing here is saved').waitFor();
  return panel;
}

/** Tries one change: `item`'s value, shown as `from`, becomes `to`; `described` is its line. */
async function tryChange(
  panel: Locator,
  item: string,
  from: string,
  to: string,
  described: string,
) {
  await choose(panel.getByLabel('Item', { exact: true }), item);
  const value = panel.getByLabel('New value', { exact: true });
  await expect.poll(() => value.inputValue()).toBe(from);
  await value.fill(to);
  await panel.getByRole('button', { name: 'Try this change' }).click();
  await panel.getByText(described).waitFor();
}

/** Each row of the table in `within`, as the text of its cells. */
function rowTexts(within: Locator): Promise<string[][]> {
  return within
    .getByRole('table')
    .locator('tbody tr.ant-table-row')
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
    );
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

describe('what-if on the MAC matrix', () => {
  it('halving a product’s minimum batch size halves the MACO of the pairs into it, unsaved', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'MAC matrix' })
      .click();
    await page.getByRole('tab', { name: 'Pairs' }).waitFor();
    const storedBefore = await storedBatchSizeOfA();
    const panel = await openWhatIf();
    await tryChange(panel, 'A', '50', '25', 'Minimum batch size of A → 25 kg');

    const status = panel.getByRole('region', { name: 'What-if result' }).getByRole('status');
    await expect
      .poll(() => status.textContent())
      .toContain('1 of 2 pairs move (1 lower than before)');
    const rows = await rowTexts(panel);
    // B → A: health 0.001 mg × 50 kg / 200 mg = 250 mg; with 25 kg, 125 mg.
    expect(rows).toEqual([
      [
        'B',
        'A',
        '250 → 125',
        '-50.0 %',
        expect.stringContaining('→'),
        '-50.0 %',
        'Lower than before',
      ],
    ]);

    // Nothing was saved: the record and the server's matrix are as they were.
    expect(await storedBatchSizeOfA()).toEqual(storedBefore);
    const matrix = await serverMatrix();
    const ba = matrix.pairs?.find((p) => p.previous === 'B' && p.next === 'A');
    expect(ba?.maco.value).toBeCloseTo(250, 9);
  });

  it('previews the Chemical policy version being built, which moves no limit until approved', async () => {
    // The browser's session edits the policy (one session per user).
    const saved = await page.evaluate(async (path) => {
      const token = sessionStorage.getItem('token') ?? '';
      const headers = { token, 'content-type': 'application/json' };
      const current = await (
        await fetch(`${path}/cleaning_limit_policies/Chemical`, { headers })
      ).json();
      const res = await fetch(`${path}/cleaning_limit_policies`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          residueType: 'Chemical',
          useARL: false,
          version: current.version,
          reason: 'General limit not applied to this site',
        }),
      });
      return (await res.json()) as { status: string };
    }, F);
    expect(saved.status).toBe('BeingBuilt');

    await page.reload();
    await page.getByRole('tab', { name: 'Pairs' }).waitFor();
    const panel = await openWhatIf();
    await panel.getByRole('switch', { name: 'Use the policy version being built' }).click();
    // A → B: without the general limit (1,000 mg) the dose criterion (2,500 mg) governs.
    const status = panel.getByRole('region', { name: 'What-if result' }).getByRole('status');
    await expect
      .poll(() => status.textContent())
      .toContain('1 of 2 pairs move (0 lower than before)');

    const matrix = await serverMatrix();
    const ab = matrix.pairs?.find((p) => p.previous === 'A' && p.next === 'B');
    expect(ab?.maco.value).toBeCloseTo(1000, 9);
  });
  it('says why no limit moves when only a criterion that does not govern moves', async () => {
    await page.reload();
    await page.getByRole('tab', { name: 'Pairs' }).waitFor();
    const panel = await openWhatIf();
    await choose(panel.getByLabel('Change', { exact: true }), 'PDE of an active');
    await tryChange(panel, 'Alpha', '0.1', '0.05', 'PDE of Alpha → 0.05 mg');

    const result = panel.getByRole('region', { name: 'What-if result' });
    await expect
      .poll(() => result.getByRole('status').textContent())
      .toContain('0 of 2 pairs move (0 lower than before)');
    const why = result.getByRole('region', { name: 'Why no limit moves' });
    await why.getByText('No limit moves: why').waitFor();
    // A → B: health-based 0.1 mg × 100 kg / 400 mg = 25,000 mg, halved; the general limit
    // (10 ppm × 100 kg = 1,000 mg) governs before and after.
    const rows = await rowTexts(why);
    expect(rows).toEqual([
      ['A', 'B', 'Health-based 25,000 mg → 12,500 mg; general limit 1,000 mg still governs'],
    ]);
  });
});
