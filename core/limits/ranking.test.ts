import { describe, expect, it } from 'vitest';
import { rankWorstCases, rankingCriteria } from './ranking.ts';
import type { RankingProduct } from './ranking.ts';

const product = (
  id: string,
  active: Partial<RankingProduct['actives'][number]>,
  lowestMaco = 100,
): RankingProduct => ({
  id,
  lowestMaco,
  minBatchSize: 1e8,
  maxDailyDose: 500,
  actives: [{ id: `${id} API`, ...active }],
});

const full = {
  solubility: 'Soluble',
  cleanability: 'Moderate',
  therapeuticDose: { value: 50, unit: 'mg' as const },
  pde: { value: 50, unit: 'ug' as const },
};

describe('rankWorstCases', () => {
  it.each([
    // solubility group, dose band, toxicity band, cleanability group → APIC rating
    ['Soluble, 50 mg, 50 ug/day, Moderate', full, 2 * 3 * 3 * 2],
    [
      'the band edges: 1000 mg is dose 2, 500 ug/day is toxicity 2',
      {
        ...full,
        therapeuticDose: { value: 1000, unit: 'mg' as const },
        pde: { value: 0.5, unit: 'mg' as const },
      },
      2 * 2 * 2 * 2,
    ],
    [
      'Practically insoluble, 0.5 mg, 0.5 ug/day, Difficult',
      {
        solubility: 'Practically insoluble',
        cleanability: 'Difficult',
        therapeuticDose: { value: 0.5, unit: 'mg' as const },
        pde: { value: 0.5, unit: 'ug' as const },
      },
      5 * 5 * 5 * 3,
    ],
  ])('scores %s', (_, active, rating) => {
    const [row] = rankWorstCases(
      [product('P', active)],
      {},
      { categories: [], criteria: [] },
    ).products;
    expect(row?.score).toBe(rating);
    expect(row?.derivation.result).toEqual({ value: rating, unit: 'points' });
  });

  it('takes the worst active of a combination product and says which', () => {
    const combo: RankingProduct = {
      ...product('Combo', full),
      actives: [
        { id: 'Soluble one', ...full },
        { id: 'Insoluble one', ...full, solubility: 'Practically insoluble' },
      ],
    };
    const [row] = rankWorstCases([combo], {}, { categories: [], criteria: [] }).products;
    expect(row?.scores.solubility).toBe(5);
    expect(row?.derivation.inputs[0]?.name).toBe(
      'solubility: Practically insoluble (active Insoluble one)',
    );
  });

  it('leaves a product without the data unscored, says what is missing, and ranks it last', () => {
    const ranking = rankWorstCases(
      [product('Bare', {}), product('Scored', full)],
      {},
      { categories: [], criteria: [] },
    );
    expect(ranking.products.map((p) => [p.id, p.score])).toEqual([
      ['Scored', 36],
      ['Bare', null],
    ]);
    expect(ranking.products[1]?.derivation.note).toBe(
      'not recorded: solubility, dose, toxicity, cleanability',
    );
  });

  it('follows the selection criteria in order and names the worst case per item', () => {
    const products = [
      product('Low MACO', full, 5),
      product('High score', { ...full, solubility: 'Slightly soluble' }, 50),
    ];
    const trains = { 'Low MACO': ['E1'], 'High score': ['E1', 'E2'] };
    const byMaco = rankWorstCases(products, trains, {
      categories: [],
      criteria: [{ name: 'MACO', basis: 'Lowest MACO' }],
    });
    expect(byMaco.products.map((p) => p.id)).toEqual(['Low MACO', 'High score']);
    expect(byMaco.perEquipment).toEqual({ E1: 'Low MACO', E2: 'High score' });
    const byDefault = rankWorstCases(products, trains, { categories: [], criteria: [] });
    expect(byDefault.products.map((p) => p.id)).toEqual(['High score', 'Low MACO']);
    expect(rankingCriteria({ categories: [], criteria: [] })).toEqual([
      { attribute: 'score', worst: 'highest' },
      { attribute: 'lowestMaco', worst: 'lowest' },
    ]);
  });

  it("scores a factor by the facility's category and combines by its formula", () => {
    const [row] = rankWorstCases(
      [product('P', full)],
      {},
      {
        categories: [
          { name: 'Solubility', variable: 'sol', levels: [{ label: 'Soluble', score: 7 }] },
        ],
        formula: { name: 'Sum', expression: 'solubility + toxicity' },
        criteria: [],
      },
    ).products;
    // The category matches by name; its level gives 7 instead of the APIC group 2.
    expect(row?.score).toBe(7 + 3);
    expect(row?.derivation.formula).toBe('Sum: solubility + toxicity');
  });
});
