import { beforeAll, describe, expect, it } from 'vitest';
import type { TUncomputable } from '#core/schemas/mac-matrix.schemas.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';
import { recordCreator } from '#server/test/create-record.ts';
import { readPdfText } from '#server/test/read-pdf-text.ts';

/**
 * Issue 9: the limit reports and their PDFs compute on what can be computed and say what they
 * left out and why, in the shape and words of the MAC matrix (`uncomputable`). The data that
 * needs it: a product whose minimum batch size and daily dose are of different kinds, stored
 * before the rule that now refuses it.
 */
const t = useFacilityTestServer();
let line: number;

const kg = (value: number) => ({ value, unit: 'kg' });
const mg = (value: number) => ({ value, unit: 'mg' });

beforeAll(async () => {
  const create = recordCreator(t.server, t.token, t.F);
  const [facility] = await t.server.db.query<{ id: number }>(
    'select id from facilities order by id limit 1',
  );
  const active = await create('apis', { name: 'Active X', pde: mg(0.1) });
  const good = await Promise.all(
    [
      ['Good 1', 100, 400],
      ['Good 2', 50, 200],
    ].map(([name, batch, dose]) =>
      create('products', {
        name,
        minBatchSize: kg(batch as number),
        maxDailyDose: mg(dose as number),
        actives: [{ activeId: active }],
      }),
    ),
  );
  // The API refuses these kinds now; older data has them.
  const [mixed] = await t.server.db.query<{ id: number }>(
    `insert into products (facility_id, name, min_batch_size, max_daily_dose, actives)
     values ($1, 'Mixed kinds', $2, $3, $4) returning id`,
    [
      facility!.id,
      JSON.stringify(kg(100)),
      JSON.stringify({ value: 2, unit: 'units' }),
      JSON.stringify([{ activeId: active }]),
    ],
  );
  const mixer = await create('equipments', {
    name: 'Mixer',
    surfaceArea: { value: 2, unit: 'sqm' },
  });
  await create('cleaning_agents', { name: 'Agent A', ld50: { value: 2000, unit: 'mg/kg' } });
  line = await create('productions', {
    name: 'Line',
    equipmentIds: [mixer],
    productIds: [...good, mixed!.id],
  });
});

const leftOut: TUncomputable[] = [
  {
    kind: 'product',
    id: 'Mixed kinds',
    reason: expect.stringContaining('maximum daily dose') as unknown as string,
  },
];

describe('the limit reports with a product they cannot compute', () => {
  it.each([
    ['equipment limits', '/limits/equipment', (b: Body) => b.equipment.map((e) => e.maco.pair)],
    [
      'production limits',
      '/limits/productions',
      (b: Body) => b.productions.map((p) => p.maco.pair),
    ],
    ['production pairs', '/limits/productions/LINE/pairs', (b: Body) => b.pairs],
    ['worst-case ranking', '/limits/worst-case-ranking', (b: Body) => b.products.map((p) => p.id)],
    ['cleaning-agent limits', '/limits/cleaning-agents', (b: Body) => b.limits.map((l) => l.next)],
  ])('%s: 200, the other products computed, the bad one listed with why', async (_n, path, of) => {
    const res = await t.server.request<Body>('GET', `${t.F}${path.replace('LINE', String(line))}`, {
      token: t.token,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.uncomputable).toEqual(leftOut);
    const names = JSON.stringify(of(res.body));
    expect(names).toContain('Good 1');
    expect(names).toContain('Good 2');
    expect(names).not.toContain('Mixed kinds');
  });

  it('refuses to explain a pair with the left-out product, saying why', async () => {
    const res = await t.server.request<Record<string, unknown>>(
      'GET',
      `${t.F}/limits/productions/${line}/explain?previous=Good%201&next=Mixed%20kinds`,
      { token: t.token },
    );
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      errName: 'DataValidationError',
      errors: [{ property: 'next' }],
    });
  });

  it.each([
    ['MAC matrix', ''],
    ['nitrosamine', '/nitrosamine'],
  ])('the %s PDF has a "Left out" section with the product and reason', async (_n, variant) => {
    const res = await fetch(`${t.server.url}${t.F}/macMatrix/production/${line}${variant}`, {
      headers: { token: t.token },
    });
    expect(res.status).toBe(200);
    const { text } = await readPdfText(new Uint8Array(await res.arrayBuffer()));
    const section = text.slice(text.indexOf('Left out of the limits'));
    expect(section).toMatch(/^Left out of the limits: their data cannot be computed/);
    expect(section).toMatch(/Product\s+Mixed kinds\s+(unit\s+of\s+)?maximum\s+daily\s+dose/);
    // The rest is computed: Good 1 → Good 2 has its derivation.
    expect(text).toContain('Good 1 -> Good 2');
  });
});

interface Body {
  uncomputable: TUncomputable[];
  equipment: { maco: { pair: unknown } }[];
  productions: { maco: { pair: unknown } }[];
  pairs: unknown[];
  products: { id: string }[];
  limits: { next: string }[];
}
