import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractDocument, ContractPair } from '#core/limits/contract-output.ts';
import type { PairExplanation } from '#core/limits/explain.ts';
import type { TMacPairsPage } from '#core/schemas/mac-matrix.schemas.ts';
import { adminEditor, changePolicyInForce } from '#server/test/policy-in-force.ts';
import { startTestServer, type TestServer } from '#server/test/test-server.ts';
import { readPdfText } from '#server/test/read-pdf-text.ts';
import { formatQuantity } from '#core/units/format-number.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';

/**
 * One set of numbers on every screen and file: the MAC matrix, its pairs page, its xlsx export,
 * the production limits report and both derivations show the same MACO, SAL, swab and rinse
 * limit for the same pair, all built by `facilityLimitsInput`; the per-production nitrosamine PDF
 * prints the same AI-based MACO and SAL for an active with only an acceptable intake. Data that broke it (issue 9): a
 * fixed swab limit far above the calculated one, a pair that shares more equipment in another
 * production than in the filtered one, and an active with only an acceptable intake.
 */

let server: TestServer;
let token: string;
let facility: MacFacility;
let line3: number;

const get = <T>(path: string) => server.request<T>('GET', `${facility.F}${path}`, { token });

beforeAll(async () => {
  server = await startTestServer();
  token = await server.login();
  const [f] = await server.db.query<{ id: number }>(
    'select id from facilities order by id limit 1',
  );
  facility = await buildMacFacility(server, f!.id);
  const post = async (path: string, body: unknown) => {
    const res = await server.request<{ result?: { id: number } }>('POST', `${facility.F}/${path}`, {
      token,
      body,
    });
    if (res.status !== 200) throw new Error(`${path}: ${JSON.stringify(res.body)}`);
    return res.body.result?.id ?? 0;
  };
  // A fixed swab limit of 10 mg and rinse limit of 10 ppm: far above every calculated limit here.
  // The limits use it once it is approved.
  await changePolicyInForce(
    server,
    facility.F,
    'cleaning_limit_policies',
    {
      residueType: 'Chemical',
      useFixedSampleLimits: true,
      fixedSwabLimit: 10,
      fixedRinseLimit: 10,
      reason: 'Company fixed sample limits',
    },
    adminEditor(token),
  );
  const ndma = await post('apis', { name: 'NDMA', acceptableIntake: { value: 96, unit: 'ng' } });
  const n = await post('products', {
    name: 'N',
    maxDailyDose: { value: 100, unit: 'mg' },
    minBatchSize: { value: 10, unit: 'kg' },
    actives: [{ activeId: ndma, amount: { value: 1, unit: 'mg' } }],
  });
  const [a, b, e3] = await Promise.all(
    [
      ['products', 'A'],
      ['products', 'B'],
      ['equipment', 'E3'],
    ].map(async ([table, name]) => {
      const [row] = await server.db.query<{ id: number }>(
        `select id from ${table} where facility_id = $1 and name = $2`,
        [facility.facilityId, name!],
      );
      return row!.id;
    }),
  );
  // Line 3 also makes A and B, on E3: facility-wide A → B shares E1, E2 and E3; Line 1 only E1, E2.
  line3 = await post('productions', {
    name: 'Line 3',
    equipmentIds: [e3],
    productIds: [a, b, n],
  });
});
afterAll(async () => {
  await server?.close();
});

type Numbers = [number | null, number | null, number | null, number | null];
type Limits = Pick<ContractPair, 'maco' | 'sal' | 'swabLimit' | 'rinseLimit'>;
const fromContract = (p: Limits): Numbers => [
  p.maco?.value ?? null,
  p.sal?.value ?? null,
  p.swabLimit?.value ?? null,
  p.rinseLimit?.value ?? null,
];
const fromExplanation = (e: PairExplanation): Numbers => [
  e.numbers.maco,
  e.numbers.sal,
  e.numbers.swabLimit,
  e.numbers.rinseLimit,
];

async function xlsxRow(query: string, previous: string, next: string): Promise<Numbers> {
  const res = await fetch(`${server.url}${facility.F}/mac-matrix/export${query}`, {
    headers: { token },
  });
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(await res.arrayBuffer());
  const rows: unknown[][] = [];
  wb.getWorksheet('Pairs')?.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
  const [header, ...pairs] = rows;
  const row = pairs.find((r) => r[0] === previous && r[1] === next)!;
  const col = (name: string) => row[header!.indexOf(name)] as number;
  return [
    col('MACO (mg)'),
    col('SAL (mg/cm²)'),
    col('Swab limit (mg/swab)'),
    col('Rinse limit (mg/ml)'),
  ];
}

type ProductionPair = Record<'maco' | 'sal' | 'swab' | 'rinse', number | null>;

/**
 * One pair as the production's nitrosamine PDF prints it: its cell in the matrix (the row of
 * the previous product, the column of the next), and from its derivation the HBEL input, MACO
 * and SAL, as text.
 */
async function nitrosaminePdfPair(productionId: number, previous: string, next: string) {
  const res = await fetch(
    `${server.url}${facility.F}/macMatrix/production/${productionId}/nitrosamine`,
    { headers: { token } },
  );
  expect(res.status).toBe(200);
  const { text } = await readPdfText(new Uint8Array(await res.arrayBuffer()));
  const matrix = text.slice(text.indexOf('Previous \\ Next'));
  const columns = /Previous \\ Next (.*)\n/.exec(matrix)![1]!.split(' ');
  // Every cell of this production's matrix is filled: "24 mg 9.6 mg ×" splits before each number.
  const cells = new RegExp(`^${previous} (.*)$`, 'm').exec(matrix)![1]!.split(/ (?=[\d×])/);
  const derivation = new RegExp(
    `${previous} -> ${next} MACO, health-based\n[^]*?\\(acceptable intake of [^)]+\\) = (.*)\n(.*) SAL = MACO / A\nA = .*\n= (.*)\n`,
  ).exec(text)!;
  return {
    cell: cells[columns.indexOf(next)],
    hbel: derivation[1],
    maco: derivation[2],
    sal: derivation[3],
  };
}

describe('the same pair on every view', () => {
  it.each([
    ['the whole facility', ''],
    ['one production', 'line1'],
  ])('shows the same MACO, SAL, swab and rinse limit for A → B in %s', async (_n, which) => {
    const productionId = which ? facility.line1 : undefined;
    const q = productionId ? `?productionId=${productionId}` : '';
    const and = productionId ? `&productionId=${productionId}` : '';
    const doc = (await get<ContractDocument>(`/mac-matrix${q}`)).body;
    const matrix = doc.pairs!.find((p) => p.previous === 'A' && p.next === 'B')!;
    const expected = fromContract(matrix);
    // Swab and rinse limits are on the matrix, from the facility's sampling types.
    expect(expected.every((v) => typeof v === 'number')).toBe(true);
    // The fixed limits are ceilings. Swab: SAL × 25 sqcm (0.18 mg) is below the fixed 10 mg and
    // governs. Rinse: SAL × area / 1 L (1 mg/ml) is above the fixed 10 ppm (0.01 mg/ml), which governs.
    expect(expected[2]).toBeCloseTo(expected[1]! * 25, 15);
    expect((expected[1]! * matrix.area.value) / 1000).toBeGreaterThan(0.01);
    expect(expected[3]).toBe(0.01);

    const page = await get<TMacPairsPage>(`/mac-matrix/pairs?previous=A&next=B${and}`);
    expect(fromContract(page.body.data[0]!)).toEqual(expected);
    // Each pair says which rule set its swab and rinse limit: here the fixed rinse limit governs.
    expect(page.body.data[0]).toMatchObject({
      swabLimitBasis: 'calculated',
      rinseLimitBasis: 'fixed',
    });
    expect(await xlsxRow(q, 'A', 'B')).toEqual(expected);
    const explained = await get<{ explanation: PairExplanation }>(
      `/mac-matrix/explain?previous=A&next=B${and}`,
    );
    expect(fromExplanation(explained.body.explanation)).toEqual(expected);
    // The derivation's shared area is the header's: the production's own equipment only.
    expect(explained.body.explanation.sharedEquipment).toEqual(matrix.sharedEquipment);
    expect(explained.body.explanation.area.result?.value).toBe(matrix.area.value);
    expect(explained.body.explanation.swabLimit?.note).toMatch(/calculated limit governs/);
    expect(explained.body.explanation.rinseLimit?.note).toMatch(/fixed sample limit governs/);
    expect(explained.body.explanation).toMatchObject({
      swabLimitBasis: 'calculated',
      rinseLimitBasis: 'fixed',
    });
    expect(matrix.sharedEquipment).toEqual(productionId ? ['E1', 'E2'] : ['E1', 'E2', 'E3']);

    if (productionId) {
      type Row = Record<'maco' | 'sal' | 'swab' | 'rinse', number> &
        Record<'previous' | 'next', string>;
      const report = await get<{ pairs: Row[] }>(`/limits/productions/${productionId}/pairs`);
      const row = report.body.pairs.find((p) => p.previous === 'A' && p.next === 'B')!;
      expect([row.maco, row.sal, row.swab, row.rinse]).toEqual(expected);
      expect(row).toMatchObject({ swabBasis: 'calculated', rinseBasis: 'fixed' });
      const inReport = await get<{ explanation: PairExplanation }>(
        `/limits/productions/${productionId}/explain?previous=A&next=B`,
      );
      expect(fromExplanation(inReport.body.explanation)).toEqual(expected);
    }
  });

  it('gives an active with only an acceptable intake its AI-based limit, not 10 ppm', async () => {
    const doc = (await get<ContractDocument>(`/mac-matrix?productionId=${line3}`)).body;
    const pair = doc.pairs!.find((p) => p.previous === 'N' && p.next === 'A')!;
    // 96 ng/day = 9.6e-5 mg × 5e7 mg / 200 mg = 24 mg (10 ppm × 50 kg: 500 mg)
    expect(pair.criteria.health?.value).toBeCloseTo(24, 12);
    expect(pair.governing).toBe('health');
    expect(pair.maco?.value).toBeCloseTo(24, 12);
    const explained = await get<{ explanation: PairExplanation }>(
      `/mac-matrix/explain?previous=N&next=A&productionId=${line3}`,
    );
    const hbel = explained.body.explanation.criteria.health.inputs.find(
      (i) => i.symbol === 'HBEL(NDMA)',
    );
    expect(hbel?.source).toBe('active NDMA: acceptable intake');
    expect(hbel?.record).toEqual({ kind: 'active', name: 'NDMA', field: 'acceptable intake' });

    // The same AI-based limit in the export, the production's report and its nitrosamine PDF.
    const expected = fromContract(pair);
    expect(await xlsxRow(`?productionId=${line3}`, 'N', 'A')).toEqual(expected);
    const report = await get<{ pairs: (ProductionPair & Record<'previous' | 'next', string>)[] }>(
      `/limits/productions/${line3}/pairs`,
    );
    const row = report.body.pairs.find((p) => p.previous === 'N' && p.next === 'A')!;
    expect([row.maco, row.sal, row.swab, row.rinse]).toEqual(expected);
    const pdf = await nitrosaminePdfPair(line3, 'N', 'A');
    expect(pdf.hbel).toBe('96 ng = 0.000096 mg/day');
    expect(pdf.maco).toBe(formatQuantity(pair.maco!.value, 'mg'));
    expect(pdf.sal).toBe(formatQuantity(pair.sal!.value, 'mg/sqcm'));
    expect(pdf.cell).toBe(formatQuantity(pair.maco!.value, 'mg'));
  });

  it('answers 404 for a derivation under a production that does not hold the pair', async () => {
    const res = await get<{ errName: string }>(
      `/mac-matrix/explain?previous=A&next=C&productionId=${facility.line1}`,
    );
    expect(res.status).toBe(404);
    expect(res.body.errName).toBe('NotFoundError');
  });
});
