import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppUnderTest } from './app-under-test.ts';
import {
  changeArrivingLive,
  browserToken,
  confirmWithReason,
  facilityApi,
  openMasterData,
  startSignedIn,
} from './ui.ts';
import { allowRefusedRequest } from './browser-errors.ts';

let app: AppUnderTest;
let page: Page;
let token: string;
let F: string;

beforeAll(async () => {
  ({ app, page } = await startSignedIn());
  // One session per user: use the browser's for the test's own calls.
  token = await browserToken(page);
  F = (await facilityApi(app)).path;
});
afterAll(async () => {
  await app?.close();
});

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- checked by assertions
async function api(method: string, path: string, body?: unknown): Promise<Body> {
  const res = await app.server.request<Body>(method, `${F}${path}`, {
    token,
    ...(body === undefined ? {} : { body }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
const product = (name: string) => ({
  name,
  maxDailyDose: { value: 500, unit: 'mg' },
  minBatchSize: { value: 100, unit: 'kg' },
});
const create = async (path: string, body: unknown): Promise<number> =>
  (await api('POST', path, body)).result.id;

const tick = (region: string, name: string) =>
  page.getByRole('region', { name: region }).getByRole('checkbox', { name, exact: true });

// A retried test builds its data again; names are unique in a facility.
let run = 0;
beforeEach(() => {
  run = Date.now() % 1_000_000;
});

describe('production-equipment matrix', () => {
  it('ticks equipment into a production with a reason, showing its surface area', async () => {
    const mixer = await create('/equipments', {
      name: `PM Mixer ${run}`,
      surfaceArea: { value: 120, unit: 'sqcm' },
    });
    const dryer = await create('/equipments', {
      name: `PM Dryer ${run}`,
      surfaceArea: { value: 10, unit: 'sqin' },
    });
    const tablet = await create('/products', product(`PM Tablet ${run}`));
    const line = await create('/productions', { name: `PM Line ${run}`, equipmentIds: [mixer] });

    await openMasterData(page, 'Production-Equipment matrix', 'Production-Equipment Matrix');
    await page.getByText('Choose a production to see').waitFor();
    await page.goto(`/master-data/production-equipment-matrix?production=${line}`);
    await page.getByTestId('saved-area').getByText('120 cm²').waitFor();
    await expect.poll(() => tick('Equipment', `PM Mixer ${run}`).isChecked()).toBe(true);

    await tick('Equipment', `PM Dryer ${run}`).check();
    await tick('Products', `PM Tablet ${run}`).check();
    // 120 sqcm + 10 sqin × 6.4516 = 184.516 sqcm, before anything is saved.
    await page.getByTestId('draft-area').getByText('184.516 cm²').waitFor();
    await page.getByText('(+64.516 cm²)').waitFor();
    const grid = page.getByRole('region', { name: 'Products × equipment' });
    await grid.getByRole('columnheader', { name: `PM Dryer ${run}` }).waitFor();
    await grid.getByRole('cell', { name: `PM Tablet ${run}` }).waitFor();
    await page.getByRole('button', { name: 'Save mapping' }).click();
    await confirmWithReason(page, 'Dryer added to the line after the layout change');
    await page.getByTestId('saved-area').getByText('184.516 cm²').waitFor();

    const map = await api('GET', `/productions/${line}/map`);
    expect(map).toEqual({
      productionId: line,
      equipmentIds: [mixer, dryer],
      productIds: [tablet],
      version: 2,
    });
    const [audit] = await app.server.db.query<Body>(
      `select reason from audit_log where domain = 'Production' and action = 'Update' and entity_id = $1`,
      [String(line)],
    );
    expect(audit?.reason).toBe('Dryer added to the line after the layout change');

    // The productions list shows the same total.
    await openMasterData(page, 'Productions', 'Productions');
    await page.getByRole('cell', { name: '184.516 cm²' }).waitFor();
  });

  it('keeps the ticks and shows the conflict when someone else saved first', async () => {
    allowRefusedRequest(409, /\/facilities\/\d+\/productions\/\d+\/map/);
    const kettle = await create('/equipments', {
      name: `PC Kettle ${run}`,
      surfaceArea: { value: 1, unit: 'sqm' },
    });
    const sieve = await create('/equipments', {
      name: `PC Sieve ${run}`,
      surfaceArea: { value: 50, unit: 'sqcm' },
    });
    const syrup = await create('/products', product(`PC Syrup ${run}`));
    const line = await create('/productions', { name: `PC Line ${run}`, equipmentIds: [kettle] });
    await page.goto(`/master-data/production-equipment-matrix?production=${line}`);
    await page.getByTestId('saved-area').getByText('10,000 cm²').waitFor();
    await tick('Equipment', `PC Sieve ${run}`).check();
    await page.getByTestId('draft-area').getByText('10,050 cm²').waitFor();

    // Someone else maps the production meanwhile, and the page reads the map again live: the
    // save must still be refused, never sent with the version that arrived under the ticks.
    await changeArrivingLive(page, `/productions/${line}/map`, () =>
      api('POST', `/productions/${line}/map`, {
        productIds: [syrup],
        version: 1,
        reason: 'Other engineer',
      }),
    );
    const before = await api('GET', `/productions/${line}/map`);
    expect(before.version).toBe(2);

    await page.getByRole('button', { name: 'Save mapping' }).click();
    await confirmWithReason(page, 'Sieve is part of the line');
    await page.getByText('This record was changed by someone else').waitFor();
    expect(await tick('Equipment', `PC Sieve ${run}`).isChecked()).toBe(true);

    await page.getByRole('button', { name: 'Load the latest version' }).click();
    await expect.poll(() => tick('Equipment', `PC Sieve ${run}`).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Save mapping' }).click();
    await confirmWithReason(page, 'Sieve is part of the line');
    await page.getByTestId('saved-area').getByText('10,050 cm²').waitFor();
    const after = await api('GET', `/productions/${line}/map`);
    expect(after).toMatchObject({
      equipmentIds: [kettle, sieve],
      productIds: [syrup],
      version: 3,
    });
  });

  it('names an archived item the production still uses, so it can be unticked', async () => {
    const oven = await create('/equipments', {
      name: `PA Oven ${run}`,
      surfaceArea: { value: 2, unit: 'sqm' },
    });
    const line = await create('/productions', { name: `PA Line ${run}`, equipmentIds: [oven] });
    await api('PUT', `/equipments/${oven}/archive`, {
      reason: 'Oven scrapped',
      confirmImpact: true,
    });
    await page.goto(`/master-data/production-equipment-matrix?production=${line}`);
    const archived = tick('Equipment', `PA Oven ${run} (archived)`);
    await expect.poll(() => archived.isChecked()).toBe(true);
    await archived.uncheck();
    await page.getByRole('button', { name: 'Save mapping' }).click();
    await confirmWithReason(page, 'The scrapped oven leaves the line');
    await expect
      .poll(async () => (await api('GET', `/productions/${line}/map`)).equipmentIds)
      .toEqual([]);
  });
});

describe('equipment group mapping', () => {
  it('adds equipment in no group to a group with a reason', async () => {
    const press = await create('/equipments', {
      name: `GM Press ${run}`,
      surfaceArea: { value: 3, unit: 'sqm' },
    });
    const group = await create('/equipment_groups', { name: `GM Presses ${run}` });

    await openMasterData(page, 'Equipment group mapping', 'Equipment Group Mapping');
    await page.goto(`/master-data/equipment-group-mapping?group=${group}`);
    await page.getByText('No equipment in this group yet').waitFor();
    await tick('Equipment in no group', `GM Press ${run}`).check();
    await page.getByRole('button', { name: 'Save group' }).click();
    await confirmWithReason(page, 'Presses of the same design');
    await expect.poll(() => tick('In this group', `GM Press ${run}`).isChecked()).toBe(true);

    expect(await api('GET', `/equipment_groups/${group}/map`)).toEqual({
      groupId: group,
      equipmentIds: [press],
      version: 2,
    });
    const noGroup = await api('GET', '/equipments/no-group?pageLimit=1000');
    expect(noGroup.data.map((e: Body) => e.name)).not.toContain(`GM Press ${run}`);
  });
});
