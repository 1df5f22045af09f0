import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLimitsInput } from '#core/limits/contract-input.ts';
import { seedDemo } from '#server/cli/seed-demo.ts';
import { startTestServer, type TestServer } from '#server/test/test-server.ts';
import { runCli } from '#server/test/limits-cli.ts';

/**
 * Issue 9: product data the limits engine cannot compute with is refused at the door (create,
 * edit, import), every unit the limits contract takes is accepted, and data stored before these
 * rules never stops a limits view: the product is listed with the reason and the rest computed.
 */
let server: TestServer;
let token: string;
let F: string;
let demoF: string;
let facilityId: number;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

beforeAll(async () => {
  server = await startTestServer();
  token = await server.login();
  const facilities = await server.db.query<{ id: number; plan_id: number }>(
    'select id, plan_id from facilities order by id',
  );
  facilityId = facilities[1]!.id;
  F = `/api/v2/plans/${facilities[1]!.plan_id}/facilities/${facilityId}`;
  demoF = `/api/v2/plans/${facilities[0]!.plan_id}/facilities/${facilities[0]!.id}`;
  await seedDemo(server.db, facilities[0]!.id);
});
afterAll(async () => {
  await server?.close();
});

async function post(path: string, body: unknown) {
  return server.request<Record<string, any>>('POST', `${F}/${path}`, { token, body }); // eslint-disable-line @typescript-eslint/no-explicit-any -- checked by assertions
}

async function create(path: string, body: unknown): Promise<number> {
  const res = await post(path, body);
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return (res.body.result as { id: number }).id;
}

const kg = (value: number) => ({ value, unit: 'kg' });
const mg = (value: number) => ({ value, unit: 'mg' });
const units = (value: number) => ({ value, unit: 'units' });
let seq = 0;
const name = (prefix: string) => `${prefix} ${++seq}`;

describe('a product whose batch size and daily dose are of different kinds', () => {
  it.each([
    ['kg and units', kg(100), units(2)],
    ['units and mg', units(10000), mg(400)],
    ['L and kg', { value: 5, unit: 'L' }, kg(0.001)],
    ['g and ml', { value: 500, unit: 'g' }, { value: 10, unit: 'ml' }],
  ])('is refused at create (%s)', async (_k, minBatchSize, maxDailyDose) => {
    const res = await post('products', { name: name('Mixed'), minBatchSize, maxDailyDose });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      errName: 'DataValidationError',
      errors: [{ property: 'maxDailyDose', constraints: { kind: expect.any(String) } }],
    });
  });

  it('is refused at edit, when only one of the two changes', async () => {
    const id = await create('products', {
      name: name('Tablet'),
      minBatchSize: kg(100),
      maxDailyDose: mg(400),
    });
    const res = await post(`products/${id}`, {
      maxDailyDose: units(2),
      reason: 'dose in tablets',
      version: 1,
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ property: 'maxDailyDose' })]);
    // Changing both together is fine.
    const both = await post(`products/${id}`, {
      minBatchSize: units(100000),
      maxDailyDose: units(2),
      unitWeight: mg(250),
      reason: 'batch and dose in tablets',
      version: 1,
    });
    expect(both.status).toBe(200);
  });

  it('is refused at import, by sheet, row and column, and nothing is written', async () => {
    const download = await fetch(`${server.url}${demoF}/master`, { headers: { token } });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await download.arrayBuffer()) as ArrayBuffer);
    const products = workbook.getWorksheet('Products')!;
    const header = (products.getRow(1).values as unknown[]).slice(1);
    const doseUnit = header.indexOf('Largest daily dose unit') + 1;
    expect(doseUnit).toBeGreaterThan(0);
    products.getRow(2).getCell(doseUnit).value = 'units';
    const res = await fetch(`${server.url}${demoF}/master?fileName=mixed.xlsx`, {
      method: 'POST',
      headers: { token, 'content-type': XLSX },
      body: new Uint8Array(Buffer.from(await workbook.xlsx.writeBuffer())),
    });
    const body = (await res.json()) as { errName: string; otherErrors: unknown[] };
    expect(res.status).toBe(422);
    expect(body.otherErrors).toEqual([
      expect.objectContaining({
        sheet: 'Products',
        row: 2,
        column: 'Largest daily dose',
        message: expect.stringContaining('same kind'),
      }),
    ]);
  });
});

describe('units the limits contract accepts', () => {
  it.each([
    [
      'batch size and daily dose in g',
      { minBatchSize: { value: 50000, unit: 'g' }, maxDailyDose: { value: 0.4, unit: 'g' } },
    ],
    ['daily dose in ug', { minBatchSize: kg(50), maxDailyDose: { value: 400000, unit: 'ug' } }],
    [
      'unit weight in g',
      { minBatchSize: units(1e5), maxDailyDose: units(2), unitWeight: { value: 0.25, unit: 'g' } },
    ],
  ])('accepts a product with %s', async (_what, fields) => {
    const res = await post('products', { name: name('Units'), ...fields });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it.each([
    ['PDE in ng', { pde: { value: 50, unit: 'ng' } }, { pde: { value: 50, unit: 'ng' } }],
    [
      'dose in g',
      { therapeuticDose: { value: 1, unit: 'g' } },
      { therapeuticDose: { value: 1, unit: 'g' } },
    ],
    [
      'µg (micro sign) as ug',
      { pde: { value: 5, unit: '\u00b5g' } },
      { pde: { value: 5, unit: 'ug' } },
    ],
    [
      'μg (Greek mu) as ug',
      { acceptableIntake: { value: 5, unit: '\u03bcg' } },
      { acceptableIntake: { value: 5, unit: 'ug' } },
    ],
  ])('accepts an active with %s', async (_what, fields, stored) => {
    const res = await post('apis', { name: name('Active'), ...fields });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject(stored);
  });

  it.each([
    ['a unit weight in ml', { unitWeight: { value: 5, unit: 'ml' } }, 'unitWeight.unit'],
    ['a batch size in sqm', { minBatchSize: { value: 5, unit: 'sqm' } }, 'minBatchSize.unit'],
    [
      'a batch size of 1e-320 ng',
      { minBatchSize: { value: 1e-320, unit: 'ng' }, maxDailyDose: mg(1) },
      'minBatchSize.value',
    ],
  ])('refuses %s', async (_what, fields, property) => {
    const res = await post('products', {
      name: name('Refused'),
      minBatchSize: units(1e5),
      maxDailyDose: units(2),
      ...fields,
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { property: string }) => e.property)).toContain(property);
  });
});

describe('limits views over data stored before the rules', () => {
  const stored = async (table: string, values: Record<string, unknown>) => {
    const columns = Object.keys(values);
    const [row] = await server.db.query<{ id: number }>(
      `insert into ${table} (facility_id, ${columns.join(', ')}) values ($1, ${columns.map((_c, i) => `$${i + 2}`).join(', ')}) returning id`,
      [facilityId, ...columns.map((c) => JSON.stringify(values[c]).replace(/^"(.*)"$/, '$1'))],
    );
    return row!.id;
  };

  it('lists what it cannot compute with the reason, computes the rest, never 5xx', async () => {
    const good = await create('apis', { name: 'Good active', pde: mg(0.1) });
    const bad = await stored('actives', { name: 'Old active', pde: { value: 1, unit: 'ppm' } });
    const p1 = await create('products', {
      name: 'Good 1',
      minBatchSize: kg(100),
      maxDailyDose: mg(400),
      actives: [{ activeId: good }],
    });
    const p2 = await create('products', {
      name: 'Good 2',
      minBatchSize: kg(50),
      maxDailyDose: mg(200),
      actives: [{ activeId: good }],
    });
    const mixed = await stored('products', {
      name: 'Mixed kinds',
      min_batch_size: kg(100),
      max_daily_dose: units(2),
      actives: [],
    });
    const withMl = await stored('products', {
      name: 'Unit weight in ml',
      min_batch_size: units(1e5),
      max_daily_dose: units(2),
      unit_weight: { value: 5, unit: 'ml' },
      actives: [],
    });
    const oldActive = await stored('products', {
      name: 'Old active product',
      min_batch_size: kg(10),
      max_daily_dose: mg(10),
      actives: [{ activeId: bad }],
    });
    const e1 = await create('equipments', {
      name: 'Mixer',
      surfaceArea: { value: 2, unit: 'sqm' },
    });
    const e2 = await stored('equipment', {
      name: 'Old tank',
      surface_area: { value: 3, unit: 'sqft' },
    });
    await create('productions', {
      name: 'Line',
      equipmentIds: [e1, e2],
      productIds: [p1, p2, mixed, withMl, oldActive],
    });

    const expected = [
      { kind: 'product', id: 'Mixed kinds', reason: expect.stringContaining('maximum daily dose') },
      { kind: 'product', id: 'Unit weight in ml', reason: expect.stringContaining('unit weight') },
      { kind: 'product', id: 'Old active product', reason: expect.stringContaining('Old active') },
      { kind: 'equipment', id: 'Old tank', reason: expect.stringContaining('sqft') },
    ];
    const matrix = await server.request<Record<string, any>>('GET', `${F}/mac-matrix`, { token }); // eslint-disable-line @typescript-eslint/no-explicit-any -- checked by assertions
    expect(matrix.status).toBe(200);
    expect(matrix.body.uncomputable).toEqual(expected);
    expect(matrix.body.pairs.map((p: { previous: string }) => p.previous)).toEqual([
      'Good 1',
      'Good 2',
    ]);

    for (const view of [
      'limits/input',
      'limits/worst-cases',
      'limits/cleaning-agents',
      'mac-matrix/pairs',
      'mac-matrix/grid',
    ]) {
      const res = await server.request<{ uncomputable: unknown }>('GET', `${F}/${view}`, { token });
      expect(res.status, view).toBe(200);
      expect(res.body.uncomputable, view).toEqual(expected);
    }
    const explain = await server.request(
      'GET',
      `${F}/mac-matrix/explain?previous=Good%201&next=Mixed%20kinds`,
      { token },
    );
    expect(explain.status).toBe(422);
    expect(explain.body).toMatchObject({
      errName: 'DataValidationError',
      errors: [{ property: 'next' }],
    });
    const reports = await fetch(`${server.url}${F}/limits/equipment`, { headers: { token } });
    await reports.arrayBuffer();
    expect(reports.status).toBe(200);
    // The xlsx export works and says, on its Inputs sheet, what it left out.
    const xlsx = await fetch(`${server.url}${F}/mac-matrix/export`, { headers: { token } });
    expect(xlsx.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await xlsx.arrayBuffer());
    const leftOut: unknown[] = [];
    workbook.getWorksheet('Inputs')!.eachRow((row) => {
      const first = (row.values as unknown[])[1];
      if (typeof first === 'string' && first.startsWith('Left out')) leftOut.push(first);
    });
    expect(leftOut).toEqual([
      'Left out: product Mixed kinds',
      'Left out: product Unit weight in ml',
      'Left out: product Old active product',
      'Left out: equipment Old tank',
    ]);

    // What the API hands out as limits input is valid input of the command line.
    const input = await server.request<{ input: unknown }>('GET', `${F}/limits/input`, { token });
    expect(parseLimitsInput(input.body.input).ok).toBe(true);
    const cli = await runCli(input.body.input);
    expect(cli.code).toBe(0);
  });
});

describe('GET {F}/limits/input of the demo facility', () => {
  it('is valid input of the command line, which computes every product', async () => {
    const res = await server.request<{ input: { products: unknown[] }; uncomputable: unknown[] }>(
      'GET',
      `${demoF}/limits/input`,
      { token },
    );
    expect(res.status).toBe(200);
    expect(res.body.uncomputable).toEqual([]);
    const cli = await runCli(res.body.input, ['--summary']);
    expect(cli.code, cli.stdout.slice(0, 500)).toBe(0);
    const doc = JSON.parse(cli.stdout) as { products: unknown[] };
    expect(doc.products.length).toBe(res.body.input.products.length);
  });
});
