import { beforeAll, describe, expect, it } from 'vitest';
import { compileLimits } from '#core/limits/compile.ts';
import { runMatrix } from '#core/limits/matrix.ts';
import type { LimitsInput } from '#core/limits/model.ts';
import { equipmentWiseLimits } from '#core/limits/worst-case.ts';
import { buildUser } from '#server/test/factories.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';

const t = useFacilityTestServer();
let line2: number;

type Lowest = { value: number | null; pair: [string, string] | null };
type Limits = { maco: Lowest; sal: Lowest; swab: Lowest; rinse: Lowest };

async function create(path: string, body: unknown): Promise<number> {
  const res = await t.server.request<{ result: { id: number } }>('POST', `${t.F}/${path}`, {
    token: t.token,
    body,
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.result.id;
}

/** A, B on line 1 (E1, E2); A, C on line 2 (E3): A's train is E1, E2, E3. */
beforeAll(async () => {
  const alpha = await create('apis', {
    name: 'Alpha',
    pde: { value: 0.1, unit: 'mg' },
    therapeuticDose: { value: 10, unit: 'mg' },
  });
  const beta = await create('apis', { name: 'Beta', pde: { value: 1, unit: 'ug' } });
  const gamma = await create('apis', { name: 'Gamma', pde: { value: 5, unit: 'mg' } });
  const product = (name: string, mdd: number, mbs: number, activeId: number) =>
    create('products', {
      name,
      maxDailyDose: { value: mdd, unit: 'mg' },
      minBatchSize: { value: mbs, unit: 'kg' },
      actives: [{ activeId, amount: { value: 5, unit: 'mg' } }],
    });
  const a = await product('A', 200, 50, alpha);
  const b = await product('B', 400, 100, beta);
  const c = await product('C', 1000, 20, gamma);
  const item = (name: string, value: number, unit: string) =>
    create('equipments', { name, surfaceArea: { value, unit } });
  const e1 = await item('E1', 12.5, 'sqm');
  const e2 = await item('E2', 5000, 'sqcm');
  const e3 = await item('E3', 20000, 'sqcm');
  await create('productions', { name: 'Line 1', equipmentIds: [e1, e2], productIds: [a, b] });
  line2 = await create('productions', { name: 'Line 2', equipmentIds: [e3], productIds: [a, c] });
});

/** The engine on the same data: the input the server builds (default sampling types included). */
async function engineOn(productionId?: number) {
  const query = productionId ? `?productionId=${productionId}` : '';
  const res = await t.server.request<{ input: LimitsInput }>('GET', `${t.F}/limits/input${query}`, {
    token: t.token,
  });
  const m = compileLimits(res.body.input);
  expect(m.input.sampling).toMatchObject({
    swabArea: { value: 25, unit: 'sqcm' },
    rinseVolume: { value: 1, unit: 'L' },
  });
  const pairs: {
    pair: [string, string];
    shared: string[];
    values: Record<string, number>;
    itemRinse: Record<string, number>;
  }[] = [];
  const summary = runMatrix(m, (v) => {
    const shared = Array.from(v.shared.slice(0, v.sharedCount), (e) => m.input.equipment[e]!.id);
    pairs.push({
      pair: [m.input.products[v.previous]!.id, m.input.products[v.next]!.id],
      shared,
      values: { maco: v.maco, sal: v.sal, swab: v.swabLimit, rinse: v.rinseLimit },
      // One item rinsed on its own: its own area × SAL in the rinse volume (1 L).
      itemRinse: Object.fromEntries(
        Array.from(v.shared.slice(0, v.sharedCount), (e) => [
          m.input.equipment[e]!.id,
          (v.sal * m.equipmentArea[e]! * m.rinseRecovery) / 1000,
        ]),
      ),
    });
  });
  // The lowest of each limit over a set of pairs, by plain search.
  const lowest = (of: typeof pairs) =>
    Object.fromEntries(
      ['maco', 'sal', 'swab', 'rinse'].map((k) => [k, Math.min(...of.map((p) => p.values[k]!))]),
    ) as Record<string, number>;
  return { m, summary, pairs, lowest };
}

describe('GET {F}/limits/equipment', () => {
  it('is refused without the EquipmentWiseCleaningLimit permission', async () => {
    const user = await buildUser(t.server.db);
    const res = await t.server.request('GET', `${t.F}/limits/equipment`, {
      token: await t.server.login(user.username, user.password),
    });
    expect(res.status).toBe(403);
  });

  it('rejects a facility that is not a number', async () => {
    const res = await t.server.request('GET', `${t.F.replace(/\d+$/, 'abc')}/limits/equipment`, {
      token: t.token,
    });
    // The permission guard runs before validation and finds no such facility.
    expect(res.status).toBe(404);
    expect(res.body.errName).toBe('NotFoundError');
  });

  it('gives each item the lowest limits of the pairs that share it, as the engine does', async () => {
    const res = await t.server.request<{
      equipment: ({ id: string; pairCount: number } & Limits)[];
      explanations: Record<string, { numbers: { sal: number; swabLimit: number } }>;
      units: Record<string, string>;
    }>('GET', `${t.F}/limits/equipment`, { token: t.token });
    expect(res.status).toBe(200);
    expect(res.body.units).toEqual({ maco: 'mg', sal: 'mg/sqcm', swab: 'mg/swab', rinse: 'mg/ml' });
    const engine = await engineOn();
    const wise = equipmentWiseLimits(engine.m, engine.summary);
    expect(res.body.equipment.map((e) => e.id)).toEqual(['E1', 'E2', 'E3']);
    for (const item of res.body.equipment) {
      const sharing = engine.pairs.filter((p) => p.shared.includes(item.id));
      const lowest = engine.lowest(sharing);
      expect(item.pairCount).toBe(sharing.length);
      for (const k of ['maco', 'sal', 'swab'] as const) {
        expect(item[k].value, `${item.id} ${k}`).toBe(lowest[k]);
        const governing = sharing.find((p) => p.pair.join() === item[k].pair?.join());
        expect(governing?.values[k]).toBe(lowest[k]);
      }
      const itemRinse = Math.min(...sharing.map((p) => p.itemRinse[item.id]!));
      expect(item.rinse.value, `${item.id} rinse`).toBeCloseTo(itemRinse, 15);
      const engineItem = wise.find((w) => w.id === item.id)!;
      expect(item.sal.value).toBe(engineItem.lowestSal);
      expect(item.sal.pair).toEqual(engineItem.governingPair);
      // The derivation opened from the number gives that number.
      const explanation = res.body.explanations[`${item.sal.pair![0]} → ${item.sal.pair![1]}`]!;
      expect(explanation.numbers.sal).toBe(item.sal.value);
    }
    // B → A on E1: health 0.001 mg × 50 kg / 200 mg = 250 mg over 130,000 sqcm; swab × 25 sqcm.
    const e1 = res.body.equipment.find((e) => e.id === 'E1')!;
    expect(e1.sal.pair).toEqual(['B', 'A']);
    expect(e1.sal.value).toBeCloseTo(250 / 130_000, 15);
    expect(e1.swab.value).toBeCloseTo((250 / 130_000) * 25, 12);
    // E1 rinsed on its own: its 125,000 sqcm carry 250 × 125/130 mg in 1 L (not the pair's 0.25).
    expect(e1.rinse.value).toBeCloseTo((250 * 125_000) / 130_000 / 1000, 12);
  });
});

describe('GET {F}/limits/productions', () => {
  it('is refused without the RiskCalculation permission', async () => {
    const user = await buildUser(t.server.db);
    const res = await t.server.request('GET', `${t.F}/limits/productions`, {
      token: await t.server.login(user.username, user.password),
    });
    expect(res.status).toBe(403);
  });

  it('gives each production the governing MACO and lowest limits of its own matrix', async () => {
    const res = await t.server.request<{
      productions: ({
        id: number;
        name: string;
        pairCount: number;
        explanations: Record<string, { numbers: { maco: number } }>;
      } & Limits)[];
    }>('GET', `${t.F}/limits/productions`, { token: t.token });
    expect(res.status).toBe(200);
    expect(res.body.productions.map((p) => p.name)).toEqual(['Line 1', 'Line 2']);
    for (const production of res.body.productions) {
      const engine = await engineOn(production.id);
      const lowest = engine.lowest(engine.pairs);
      expect(production.pairCount).toBe(engine.pairs.length);
      for (const k of ['maco', 'sal', 'swab', 'rinse'] as const) {
        expect(production[k].value, `${production.name} ${k}`).toBe(lowest[k]);
      }
      const key = `${production.maco.pair![0]} → ${production.maco.pair![1]}`;
      expect(production.explanations[key]!.numbers.maco).toBe(production.maco.value);
    }
    // Line 2 alone: A → C, dose 10 mg × 20 kg / (1000 × 1000 mg) = 200 mg = 10 ppm × 20 kg;
    // C → A is 10 ppm × 50 kg = 500 mg.
    const two = res.body.productions.find((p) => p.id === line2)!;
    expect(two.maco.pair).toEqual(['A', 'C']);
    expect(two.maco.value).toBeCloseTo(200, 9);
    expect(two.sal.value).toBeCloseTo(200 / 20_000, 15);
  });
});

describe('GET {F}/limits/productions/:productionId/pairs and /explain', () => {
  it('is refused without the RiskCalculation permission', async () => {
    const user = await buildUser(t.server.db);
    const as = { token: await t.server.login(user.username, user.password) };
    expect(
      (await t.server.request('GET', `${t.F}/limits/productions/${line2}/pairs`, as)).status,
    ).toBe(403);
    const explain = `${t.F}/limits/productions/${line2}/explain?previous=A&next=C`;
    expect((await t.server.request('GET', explain, as)).status).toBe(403);
  });

  it('lists the pairs of the production as the engine computes them, and explains one', async () => {
    const res = await t.server.request<{
      pairs: { previous: string; next: string; maco: number; rinse: number }[];
    }>('GET', `${t.F}/limits/productions/${line2}/pairs`, { token: t.token });
    expect(res.status).toBe(200);
    const engine = await engineOn(line2);
    expect(res.body.pairs.map((p) => [p.previous, p.next, p.maco, p.rinse])).toEqual(
      engine.pairs.map((p) => [...p.pair, p.values.maco, p.values.rinse]),
    );
    const explained = await t.server.request<{
      explanation: { numbers: { maco: number }; sharedEquipment: string[]; rinseLimit: unknown };
    }>('GET', `${t.F}/limits/productions/${line2}/explain?previous=A&next=C`, { token: t.token });
    expect(explained.status).toBe(200);
    expect(explained.body.explanation.sharedEquipment).toEqual(['E3']);
    expect(explained.body.explanation.numbers.maco).toBe(res.body.pairs[0]!.maco);
    expect(explained.body.explanation.rinseLimit).toBeDefined();
  });

  it('answers 404 for a pair outside the production and for an unknown production', async () => {
    const outside = await t.server.request(
      'GET',
      `${t.F}/limits/productions/${line2}/explain?previous=A&next=B`,
      { token: t.token },
    );
    expect(outside.status).toBe(404);
    expect(outside.body.errName).toBe('NotFoundError');
    const unknown = await t.server.request('GET', `${t.F}/limits/productions/999999/pairs`, {
      token: t.token,
    });
    expect(unknown.status).toBe(404);
  });

  it('rejects an explain call without the products', async () => {
    const res = await t.server.request('GET', `${t.F}/limits/productions/${line2}/explain`, {
      token: t.token,
    });
    expect(res.status).toBe(422);
    expect(res.body.errName).toBe('DataValidationError');
  });
});

describe('a facility without master data', () => {
  it('answers empty reports', async () => {
    const [f] = await t.server.db.query<{ id: number; plan_id: number }>(
      'select id, plan_id from facilities order by id desc limit 1',
    );
    const empty = `/api/v2/plans/${f!.plan_id}/facilities/${f!.id}/limits`;
    const equipment = await t.server.request<{ equipment: unknown[] }>(
      'GET',
      `${empty}/equipment`,
      {
        token: t.token,
      },
    );
    expect(equipment.status).toBe(200);
    expect(equipment.body.equipment).toEqual([]);
    const productions = await t.server.request<{ productions: unknown[] }>(
      'GET',
      `${empty}/productions`,
      { token: t.token },
    );
    expect(productions.body.productions).toEqual([]);
    const ranking = await t.server.request<{ products: unknown[] }>(
      'GET',
      `${empty}/worst-case-ranking`,
      { token: t.token },
    );
    expect(ranking.body.products).toEqual([]);
  });
});
