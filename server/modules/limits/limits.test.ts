import { describe, expect, it } from 'vitest';
import { buildUser } from '#server/test/factories.ts';
import { recordCreator } from '#server/test/create-record.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';

const t = useFacilityTestServer();

const create = (path: string, body: unknown) => recordCreator(t.server, t.token, t.F)(path, body);

describe('GET {F}/mac-matrix', () => {
  it('is refused without the RiskCalculation permission', async () => {
    const user = await buildUser(t.server.db);
    const res = await t.server.request('GET', `${t.F}/mac-matrix`, {
      token: await t.server.login(user.username, user.password),
    });
    expect(res.status).toBe(403);
  });

  it("computes the facility's pairs from its master data and follows its changes", async () => {
    const a1 = await create('apis', {
      name: 'Alpha',
      pde: { value: 0.1, unit: 'mg' },
      therapeuticDose: { value: 10, unit: 'mg' },
    });
    const b1 = await create('apis', { name: 'Beta', pde: { value: 1, unit: 'ug' } });
    const productA = await create('products', {
      name: 'A',
      maxDailyDose: { value: 200, unit: 'mg' },
      minBatchSize: { value: 50, unit: 'kg' },
      actives: [{ activeId: a1, amount: { value: 10, unit: 'mg' } }],
    });
    const productB = await create('products', {
      name: 'B',
      maxDailyDose: { value: 400, unit: 'mg' },
      minBatchSize: { value: 100, unit: 'kg' },
      actives: [{ activeId: b1, amount: { value: 5, unit: 'mg' } }],
    });
    const e1 = await create('equipments', {
      name: 'E1',
      surfaceArea: { value: 12.5, unit: 'sqm' },
    });
    const e2 = await create('equipments', {
      name: 'E2',
      surfaceArea: { value: 5000, unit: 'sqcm' },
    });
    await create('productions', {
      name: 'Line 1',
      equipmentIds: [e1, e2],
      productIds: [productA, productB],
    });

    const res = await t.server.request<{
      pairs: {
        previous: string;
        next: string;
        criteria: Record<string, { value: number } | null>;
        governing: string;
        maco: { value: number; unit: string };
        area: { value: number };
        sal: { value: number; unit: string };
      }[];
      products: { id: string; worstNext: string }[];
    }>('GET', `${t.F}/mac-matrix`, { token: t.token });
    expect(res.status).toBe(200);
    const ab = res.body.pairs.find((p) => p.previous === 'A' && p.next === 'B')!;
    // Health: 0.1 mg × 100 kg / 400 mg = 25,000 mg; dose: 10 mg × 100 kg / (1000 × 400 mg) = 2,500 mg;
    // general limit: 10 ppm × 100 kg = 1,000 mg, the lowest. Area 125,000 + 5,000 sqcm.
    expect(ab.criteria.health?.value).toBeCloseTo(25_000, 6);
    expect(ab.criteria.dose?.value).toBeCloseTo(2_500, 6);
    expect(ab.criteria.arl?.value).toBeCloseTo(1_000, 6);
    expect(ab.governing).toBe('arl');
    expect(ab.area.value).toBe(130_000);
    expect(ab.sal).toEqual({ value: 1_000 / 130_000, unit: 'mg/sqcm' });
    const ba = res.body.pairs.find((p) => p.previous === 'B' && p.next === 'A')!;
    // Health: 0.001 mg × 50 kg / 200 mg = 250 mg, below the general limit of 10 ppm × 50 kg = 500 mg.
    expect(ba.governing).toBe('health');
    expect(ba.maco.unit).toBe('mg');
    expect(ba.maco.value).toBeCloseTo(250, 9);

    // A change to master data changes the limits at once.
    const detail = await t.server.request<{ version: number }>('GET', `${t.F}/apis/${b1}`, {
      token: t.token,
    });
    const edit = await t.server.request('POST', `${t.F}/apis/${b1}`, {
      token: t.token,
      body: {
        pde: { value: 0.1, unit: 'ug' },
        version: detail.body.version,
        reason: 'New toxicology assessment',
      },
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const after = await t.server.request<{
      pairs: { previous: string; maco: { value: number } }[];
    }>('GET', `${t.F}/mac-matrix`, { token: t.token });
    expect(after.body.pairs.find((p) => p.previous === 'B')!.maco.value).toBeCloseTo(25, 9);
    const summary = await t.server.request<Record<string, unknown>>(
      'GET',
      `${t.F}/mac-matrix?summary=true`,
      { token: t.token },
    );
    expect(summary.body).not.toHaveProperty('pairs');
    expect(summary.body).toHaveProperty('products');
  });

  it('explains a pair, lists worst cases per product and equipment, and limits one production', async () => {
    const explained = await t.server.request<{ explanation: Record<string, any> }>( // eslint-disable-line @typescript-eslint/no-explicit-any -- checked below
      'GET',
      `${t.F}/mac-matrix/explain?previous=B&next=A`,
      { token: t.token },
    );
    expect(explained.status).toBe(200);
    const { explanation } = explained.body;
    expect(explanation.governing).toBe('health');
    expect(explanation.maco.result).toMatchObject({ unit: 'mg' });
    expect(explanation.maco.result.value).toBeCloseTo(25, 9);
    expect(JSON.stringify(explanation.criteria.health)).toContain('ug');
    expect(explanation.sal.result.unit).toBe('mg/sqcm');
    const engineInput = await t.server.request<{
      input: { products: { id: string }[]; trains: Record<string, string[]> };
    }>('GET', `${t.F}/limits/input`, { token: t.token });
    expect(engineInput.body.input.products.map((p) => p.id)).toEqual(['A', 'B']);
    expect(engineInput.body.input.trains).toEqual({ A: ['E1', 'E2'], B: ['E1', 'E2'] });
    const unknown = await t.server.request(
      'GET',
      `${t.F}/mac-matrix/explain?previous=B&next=Nope`,
      {
        token: t.token,
      },
    );
    expect(unknown.status).toBe(404);

    const worst = await t.server.request<{
      products: { id: string; worstNext: string }[];
      equipment: { id: string; governingPair: string[] }[];
    }>('GET', `${t.F}/limits/worst-cases`, { token: t.token });
    expect(worst.body.products.map((p) => [p.id, p.worstNext])).toEqual([
      ['A', 'B'],
      ['B', 'A'],
    ]);
    expect(worst.body.equipment.map((e) => e.id)).toEqual(['E1', 'E2']);
    expect(worst.body.equipment[0]!.governingPair).toEqual(['B', 'A']);

    const line2 = await create('productions', { name: 'Line 2', equipmentIds: [], productIds: [] });
    const empty = await t.server.request<{ pairs: unknown[] }>(
      'GET',
      `${t.F}/mac-matrix?productionId=${line2}`,
      { token: t.token },
    );
    expect(empty.body.pairs).toEqual([]);
    expect(
      (await t.server.request('GET', `${t.F}/mac-matrix?productionId=999999`, { token: t.token }))
        .status,
    ).toBe(404);
  });

  it('computes cleaning-agent limits under the Detergent policy', async () => {
    await create('cleaning_agents', {
      name: 'Alkaline detergent',
      ld50: { value: 2000, unit: 'mg/kg' },
    });
    const res = await t.server.request<{
      limits: {
        agent: string;
        next: string;
        ld50: number;
        maco: number;
        governing: string;
        derivations: Record<string, unknown>;
      }[];
    }>('GET', `${t.F}/limits/cleaning-agents`, { token: t.token });
    expect(res.status).toBe(200);
    const toA = res.body.limits.find((l) => l.next === 'A')!;
    // NOEL = 2000 mg/kg × 70 kg / 2000 = 70 mg/day; MACO = 70 mg × 50 kg / (1000 × 200 mg) = 17,500 mg.
    expect(toA.ld50).toBeCloseTo(17_500, 6);
    // The general limit, 10 ppm × 50 kg = 500 mg, is lower and governs.
    expect(toA.governing).toBe('arl');
    expect(toA.maco).toBeCloseTo(500, 9);
    expect(toA.derivations).toHaveProperty('ld50');
  });
});
