import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';

/*
 * Every limits view and export answers as of a moment from the kept versions of the records,
 * or refuses `asOf` with 422; an `asOf` that is no ISO 8601 date-time or date is 422 everywhere.
 * The facility is mac-test-data's: A → B on Line 1 is governed by the general limit,
 * 10 ppm × MBS of B. B's batch goes from 100 kg to 10 kg after the moment T, so A → B moves from
 * 1,000 mg to 100 mg (dose: 10 mg × 10 kg / (1000 × 400 mg) = 250 mg, still above). An agent's
 * LD50 goes from 2,000 to 1,000 mg/kg: its LD50 limit in B moves from
 * 70 mg/day × 100 kg / (1000 × 400 mg) = 17,500 mg to 35 mg/day × 10 kg / (1000 × 400 mg) = 875 mg.
 */

const t = useFacilityTestServer();
let facility: MacFacility;
let moment: string;
beforeAll(async () => {
  facility = await buildMacFacility(t.server, t.facilityId);
  const agent = await call('POST', '/cleaning_agents', {
    name: 'Alkaline',
    ld50: { value: 2000, unit: 'mg/kg' },
  });
  expect(agent.status).toBe(200);
  // T: after everything above committed, before the changes below.
  const [row] = await t.server.db.query<{ t: string }>(
    `select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as t`,
  );
  moment = row!.t;
  await edit('products', 'B', { minBatchSize: { value: 10, unit: 'kg' } }, 'Smaller batches');
  await edit('cleaning_agents', 'Alkaline', { ld50: { value: 1000, unit: 'mg/kg' } }, 'New SDS');
});

const call = (method: string, path: string, body?: unknown) =>
  t.call(method, `${facility.F}${path}`, body);

async function edit(path: string, name: string, change: object, reason: string) {
  const list = await call('GET', `/${path}?search=${name}`);
  const record = (list.body.data as Body[]).find((r) => r.name === name)!;
  const current = await call('GET', `/${path}/${record.id}`);
  const res = await call('POST', `/${path}/${record.id}`, {
    ...change,
    version: current.body.version,
    reason,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const withAsOf = (path: string, asOf: string) =>
  `${path}${path.includes('?') ? '&' : '?'}asOf=${encodeURIComponent(asOf)}`;

async function pairsSheetMaco(asOf?: string): Promise<number> {
  const path = asOf ? withAsOf('/mac-matrix/export', asOf) : '/mac-matrix/export';
  const res = await fetch(`${t.server.url}${facility.F}${path}`, { headers: { token: t.token } });
  expect(res.status).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(await res.arrayBuffer());
  const rows: unknown[][] = [];
  wb.getWorksheet('Pairs')!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  const column = rows[0]!.indexOf('MACO (mg)');
  const inputs: unknown[][] = [];
  wb.getWorksheet('Inputs')!.eachRow((row) => inputs.push((row.values as unknown[]).slice(1)));
  const asOfRow = inputs.find((r) => r[0] === 'Data as of (UTC)');
  if (asOf) expect((asOfRow?.[1] as Date).toISOString()).toBe(new Date(asOf).toISOString());
  else expect(asOfRow?.[1]).toBeInstanceOf(Date);
  return rows.find((r) => r[0] === 'A' && r[1] === 'B')![column] as number;
}

/** A JSON view's number: `path` read now or as of a moment, then `pick` applied to its body. */
const json =
  (path: () => string, pick: (body: Body) => unknown) =>
  async (asOf?: string): Promise<number> => {
    const res = await call('GET', asOf ? withAsOf(path(), asOf) : path());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return pick(res.body) as number;
  };
const named = (list: unknown, key: string, value: string) =>
  (list as Body[]).find((item) => item[key] === value)!;

/** Each limits view, the number of it that the changes move, then and now (hand-computed). */
const VIEWS: {
  view: string;
  read: (asOf?: string) => Promise<number>;
  then: number;
  now: number;
}[] = [
  {
    view: 'GET limits/worst-cases (lowest MACO after A)',
    read: json(
      () => '/limits/worst-cases',
      (b) => named(b.products, 'id', 'A').lowestMaco,
    ),
    then: 1000,
    now: 100,
  },
  {
    view: 'GET mac-matrix/explain (MACO of A → B)',
    read: json(
      () => '/mac-matrix/explain?previous=A&next=B',
      (b) => b.explanation.maco.result.value,
    ),
    then: 1000,
    now: 100,
  },
  {
    view: 'GET mac-matrix/explain with productionId',
    read: json(
      () => `/mac-matrix/explain?previous=A&next=B&productionId=${facility.line1}`,
      (b) => b.explanation.maco.result.value,
    ),
    then: 1000,
    now: 100,
  },
  {
    view: 'GET limits/cleaning-agents (LD50 limit of the agent in B)',
    read: json(
      () => '/limits/cleaning-agents',
      (b) => named(b.limits, 'next', 'B').ld50,
    ),
    then: 17_500,
    now: 875,
  },
  {
    view: 'GET mac-matrix/export (Pairs sheet, MACO of A → B)',
    read: pairsSheetMaco,
    then: 1000,
    now: 100,
  },
  {
    view: 'GET mac-matrix/pairs',
    read: json(
      () => '/mac-matrix/pairs?previous=A&next=B',
      (b) => b.data[0].maco.value,
    ),
    then: 1000,
    now: 100,
  },
  {
    view: 'GET mac-matrix (the streamed document)',
    read: json(
      () => '/mac-matrix',
      (b) => (b.pairs as Body[]).find((p) => p.previous === 'A' && p.next === 'B')!.maco.value,
    ),
    then: 1000,
    now: 100,
  },
  {
    view: 'GET mac-matrix/grid',
    read: json(
      () => '/mac-matrix/grid',
      (b) => {
        const [a, bIndex] = [b.products.indexOf('A'), b.products.indexOf('B')];
        for (let i = b.rowStart[a]; i < b.rowStart[a + 1]; i += 1)
          if (b.next[i] === bIndex) return b.maco[i];
        return undefined;
      },
    ),
    then: 1000,
    now: 100,
  },
  {
    view: 'GET limits/input (minimum batch size of B, kg)',
    read: json(
      () => '/limits/input',
      (b) => named(b.input.products, 'id', 'B').minBatchSize.value,
    ),
    then: 100,
    now: 10,
  },
  {
    view: 'GET limits/productions/{id}/explain',
    read: json(
      () => `/limits/productions/${facility.line1}/explain?previous=A&next=B`,
      (b) => b.explanation.maco.result.value,
    ),
    then: 1000,
    now: 100,
  },
  {
    // Line 1 also holds B → A (250 mg, below).
    view: 'GET limits/productions (lowest MACO of Line 1)',
    read: json(
      () => '/limits/productions',
      (b) => named(b.productions, 'name', 'Line 1').maco.value,
    ),
    then: 250,
    now: 100,
  },
  {
    // E1 also carries B → A: health 1 µg × 50 kg / 200 mg = 250 mg, under A → B’s 1,000 mg.
    view: 'GET limits/equipment (lowest MACO on E1)',
    read: json(
      () => '/limits/equipment',
      (b) => named(b.equipment, 'id', 'E1').maco.value,
    ),
    then: 250,
    now: 100,
  },
];

describe('asOf on every limits view', () => {
  it.each(VIEWS)('$view: the number of T with asOf=T, today’s without', async (view) => {
    expect(await view.read()).toBeCloseTo(view.now, 9);
    expect(await view.read(moment)).toBeCloseTo(view.then, 9);
    // A moment still to come answers with the data as they are now.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(await view.read(tomorrow)).toBeCloseTo(view.now, 9);
  });

  it('writes the moment an export was read as of into its audit row', async () => {
    await pairsSheetMaco(moment);
    const [audit] = await t.server.db.query<{ new_values: Body }>(
      `select new_values from audit_log where domain = 'RiskCalculation' and action = 'Export'
        order by id desc limit 1`,
    );
    expect(audit!.new_values).toMatchObject({ format: 'xlsx', asOf: moment });
  });

  it('reads a date as the start of that day (UTC): before the facility’s data existed', async () => {
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const res = await call('GET', `/limits/worst-cases?asOf=${yesterday}`);
    expect(res.status).toBe(200);
    expect(res.body.products).toEqual([]);
  });
});

const AS_OF_ROUTES = () => [
  '/mac-matrix',
  '/mac-matrix/explain?previous=A&next=B',
  '/mac-matrix/export',
  '/mac-matrix/pairs',
  '/mac-matrix/grid',
  '/limits/input',
  '/limits/worst-cases',
  '/limits/cleaning-agents',
  '/limits/equipment',
  '/limits/productions',
  `/limits/productions/${facility.line1}/pairs`,
  `/limits/productions/${facility.line1}/explain?previous=A&next=B`,
  '/limits/worst-case-ranking',
  `/macMatrix/production/${facility.line1}`,
  `/macMatrix/production/${facility.line1}/nitrosamine`,
];

describe('asOf that is no moment, or a view that cannot answer as of one', () => {
  it.each(['garbage', 'yesterday', '2026-02-30', '2026-11-30T14:00:00', '1764500000'])(
    'asOf=%s is 422 on asOf on every limits route',
    async (bad) => {
      for (const path of AS_OF_ROUTES()) {
        const res = await call('GET', withAsOf(path, bad));
        expect({ path, status: res.status }).toEqual({ path, status: 422 });
        expect(res.body.errName).toBe('DataValidationError');
        expect(res.body.errors.map((e: Body) => e.property)).toEqual(['asOf']);
      }
    },
  );

  it('the production PDFs preview the limits as they are now and refuse asOf with the reason', async () => {
    for (const path of AS_OF_ROUTES().filter((p) => p.startsWith('/macMatrix/'))) {
      const res = await call('GET', withAsOf(path, moment));
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([
        {
          property: 'asOf',
          constraints: {
            custom:
              'This view answers only with the data as they are now: this PDF previews the limits as they are now; the production-limits report keeps them as of its generation',
          },
        },
      ]);
    }
  });

  it('says what an asOf must look like', async () => {
    const res = await call('GET', '/limits/worst-cases?asOf=garbage');
    expect(res.body.errors[0].constraints).toEqual({
      invalid_union:
        'asOf must be an ISO 8601 date-time (2026-11-30T14:00:00Z) or date (2026-11-30)',
    });
  });
});
