import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { worstCaseRating } from '#core/limits/risk.ts';
import { buildUser } from '#server/test/factories.ts';
import { recordCreator } from '#server/test/create-record.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';

/** Golden case D25 (worst-case rating, /work/shared/golden), as stored beside the engine. */
interface GoldenProduct {
  name: string;
  solubility: string;
  min_dose_mg: number;
  ADE_ug_day: number;
  cleanability: string;
  MBS_kg: number;
  MDD_mg: number;
}
const golden = JSON.parse(
  readFileSync(
    new URL('../../../core/limits/golden/worked-examples.json', import.meta.url),
    'utf8',
  ),
) as {
  cases: {
    id: string;
    inputs: { products: { value: GoldenProduct[] } };
    expected: { scores: { value: Record<string, { WCR: number }> } };
  }[];
};
const d25 = golden.cases.find((c) => c.id === 'D25-worst-case-rating')!;

const t = useFacilityTestServer();

const create = (path: string, body: unknown) => recordCreator(t.server, t.token, t.F)(path, body);

// The actives' scales spell two terms differently from the template.
const solubilityTerm = (t: string) => t.charAt(0) + t.slice(1).toLowerCase();
const cleanabilityTerm = (t: string) => (t === 'Medium' ? 'Moderate' : t);

beforeAll(async () => {
  const productIds: number[] = [];
  for (const p of d25.inputs.products.value) {
    const active = await create('apis', {
      name: `${p.name} API`,
      solubility: solubilityTerm(p.solubility),
      cleanability: cleanabilityTerm(p.cleanability),
      therapeuticDose: { value: p.min_dose_mg, unit: 'mg' },
      pde: { value: p.ADE_ug_day, unit: 'ug' },
    });
    productIds.push(
      await create('products', {
        name: p.name,
        maxDailyDose: { value: p.MDD_mg, unit: 'mg' },
        minBatchSize: { value: p.MBS_kg, unit: 'kg' },
        actives: [{ activeId: active, amount: { value: 10, unit: 'mg' } }],
      }),
    );
  }
  const mixer = await create('equipments', {
    name: 'Mixer',
    surfaceArea: { value: 2, unit: 'sqm' },
  });
  await create('productions', { name: 'Line 1', equipmentIds: [mixer], productIds });
});

interface Ranking {
  products: {
    rank: number;
    id: string;
    score: number | null;
    scores: Record<string, number>;
    lowestMaco: number | null;
    derivation: {
      formula: string;
      result: { value: number; unit: string } | null;
      steps: { symbol: string; value: number; expression: string }[];
    };
  }[];
  perEquipment: Record<string, string | null>;
}

const ranking = () =>
  t.server.request<Ranking>('GET', `${t.F}/limits/worst-case-ranking`, { token: t.token });

describe('GET {F}/limits/worst-case-ranking', () => {
  it('is refused without the RiskCalculation permission', async () => {
    const user = await buildUser(t.server.db);
    const res = await t.server.request('GET', `${t.F}/limits/worst-case-ranking`, {
      token: await t.server.login(user.username, user.password),
    });
    expect(res.status).toBe(403);
  });

  it('scores each product as the golden case and the engine do, and ranks the worst first', async () => {
    const res = await ranking();
    expect(res.status).toBe(200);
    const expected = d25.expected.scores.value;
    for (const p of d25.inputs.products.value) {
      const row = res.body.products.find((r) => r.id === p.name)!;
      const engine = worstCaseRating({
        solubility: p.solubility,
        minDoseMg: p.min_dose_mg,
        hbelUgPerDay: p.ADE_ug_day,
        cleanability: p.cleanability,
      });
      expect(row.score, p.name).toBe(expected[p.name]!.WCR);
      expect(row.score).toBe(engine.rating);
      expect(row.scores).toMatchObject({
        solubility: engine.solubility,
        dose: engine.dose,
        toxicity: engine.toxicity,
        cleanability: engine.cleanability,
      });
      expect(row.derivation.result).toEqual({ value: engine.rating, unit: 'points' });
    }
    // Entacavir (WCR 75) is the worst case; the three at 24 follow by their lowest MACO.
    expect(res.body.products[0]).toMatchObject({ rank: 1, id: 'Entacavir' });
    const tied = res.body.products.slice(1, 4);
    expect(tied.map((r) => r.score)).toEqual([24, 24, 24]);
    const macos = tied.map((r) => r.lowestMaco!);
    expect(macos).toEqual([...macos].sort((a, b) => a - b));
    expect(res.body.products[4]).toMatchObject({ rank: 5, id: 'Ciprofloxacin', score: 6 });
    expect(res.body.perEquipment).toEqual({ Mixer: 'Entacavir' });
    const tox = res.body.products[0]!.derivation.steps.find((s) => s.symbol === 'toxicity')!;
    expect(tox.expression).toContain('ug/day');
  });

  it("uses the facility's risk category and the formula of its Highest RPN criterion", async () => {
    await create('rpn_categories', {
      name: 'Cleanability',
      variable: 'cleanability',
      dimension: 'Detectability',
      levels: [
        { label: 'Easy', score: 1 },
        { label: 'Moderate', score: 2 },
        { label: 'Difficult', score: 9 },
      ],
    });
    const formula = await create('rpn_formulas', {
      name: 'Toxicity first',
      expression: 'toxicity * 10 + cleanability',
    });
    await create('selection-criteria', {
      criteriaId: 'SC-1',
      name: 'Highest risk',
      basis: 'Highest RPN',
      priority: 1,
      rpnFormulaId: formula,
    });
    const res = await ranking();
    expect(res.status).toBe(200);
    const clarithromycin = res.body.products.find((r) => r.id === 'Clarithromycin')!;
    // Toxicity group 2 (ADE 255 ug/day), cleanability "Difficult" scored 9 by the category.
    expect(clarithromycin.score).toBe(2 * 10 + 9);
    expect(clarithromycin.derivation.formula).toBe('Toxicity first: toxicity * 10 + cleanability');
    const step = clarithromycin.derivation.steps.find((s) => s.symbol === 'cleanability')!;
    expect(step.expression).toContain('risk category Cleanability');
    expect(res.body.products.map((r) => r.id)).toEqual([
      'Entacavir',
      'Irbesartan',
      'Clarithromycin',
      'Paracetamol',
      'Ciprofloxacin',
    ]);
  });
});
