import { rpnEvaluator } from '../schemas/rpn-formula.schemas.ts';
import type { QuantityOf } from '../units/quantity.ts';
import { result } from './derivation.ts';
import type { Derivation } from './derivation.ts';
import { lowestOf, scoreProduct } from './ranking-factors.ts';
import { worstCasePerEquipment, worstFirst } from './risk.ts';
import type { Candidate, SelectionCriterion } from './risk.ts';

/**
 * Worst-case ranking of a facility's products (reference §4.1): each product scored by the risk
 * scales of `risk.ts` (or the facility's own risk categories and formula), then ranked by the
 * facility's selection criteria with `worstFirst`.
 */

export interface RankingActive {
  id: string;
  solubility?: string;
  cleanability?: string;
  therapeuticDose?: QuantityOf<'mass'>;
  pde?: QuantityOf<'mass'>;
}

export interface RankingProduct {
  id: string;
  actives: RankingActive[];
  /** mg, NaN when the product is no previous product of any pair */
  lowestMaco: number;
  minBatchSize: number;
  maxDailyDose: number;
}

export interface RankingCategory {
  name: string;
  variable: string;
  levels: { label: string; score: number }[];
}

export interface RankingConfig {
  categories: RankingCategory[];
  /** The risk formula of the facility's "Highest RPN" criterion; the APIC rating without one. */
  formula?: { name: string; expression: string };
  /** Selection criteria by priority (1 first); a default order without any. */
  criteria: { name: string; basis: string }[];
}

export interface RankedProduct {
  rank: number;
  id: string;
  /** Factor scores by variable name. */
  scores: Record<string, number>;
  /** The risk score, null when a factor it needs is not recorded. */
  score: number | null;
  lowestMaco: number;
  derivation: Derivation;
}

const APIC = {
  name: 'APIC worst-case rating',
  expression: 'solubility * dose * toxicity * cleanability',
};

/** Selection bases (spec, selection criteria) as attributes of the ranking. */
const BASIS: Record<string, SelectionCriterion> = {
  'Lowest MACO': { attribute: 'lowestMaco', worst: 'lowest' },
  'Lowest PDE': { attribute: 'pdeMg', worst: 'lowest' },
  'Lowest solubility': { attribute: 'solubility', worst: 'highest' },
  'Hardest to clean': { attribute: 'cleanability', worst: 'highest' },
  'Highest RPN': { attribute: 'score', worst: 'highest' },
  'Highest potency': { attribute: 'therapeuticDoseMg', worst: 'lowest' },
  'Smallest batch size': { attribute: 'minBatchSize', worst: 'lowest' },
  'Largest daily dose': { attribute: 'maxDailyDose', worst: 'highest' },
};

export function rankingCriteria(config: RankingConfig): SelectionCriterion[] {
  const chosen = config.criteria.flatMap((c) => BASIS[c.basis] ?? []);
  return chosen.length > 0 ? chosen : [BASIS['Highest RPN']!, BASIS['Lowest MACO']!];
}

function rate(
  product: RankingProduct,
  config: RankingConfig,
  evaluate: ReturnType<typeof rpnEvaluator>,
) {
  const scored = scoreProduct(product, config);
  const formula = config.formula ?? APIC;
  let score: number | null = null;
  let note: string | undefined;
  try {
    score = evaluate(scored.scores);
    if (!Number.isFinite(score)) score = null;
  } catch (error) {
    note =
      scored.missing.length > 0
        ? `not recorded: ${scored.missing.join(', ')}`
        : error instanceof Error
          ? error.message
          : String(error);
  }
  const derivation: Derivation = {
    quantity: `risk score of ${product.id}`,
    formula: `${formula.name}: ${formula.expression}`,
    reference: config.formula
      ? 'facility risk formula (ICH Q9 risk ranking)'
      : 'APIC cleaning validation guide, worst-case rating (reference §4.1)',
    inputs: scored.inputs,
    steps: scored.steps,
    result: score === null ? null : result(score, 'points'),
    ...(note ? { note } : {}),
  };
  return { scores: scored.scores, score, derivation };
}

export interface WorstCaseRanking {
  products: RankedProduct[];
  /** The worst-case product of each equipment item by the same criteria. */
  perEquipment: Record<string, string | null>;
  criteria: SelectionCriterion[];
  /** Each product's values of the ranking attributes, to pick the worst of any other group. */
  candidates: Candidate[];
}

export function rankWorstCases(
  products: readonly RankingProduct[],
  trains: Record<string, readonly string[]>,
  config: RankingConfig,
): WorstCaseRanking {
  const criteria = rankingCriteria(config);
  // The formula parsed once for every product.
  const evaluate = rpnEvaluator((config.formula ?? APIC).expression);
  const rated = new Map(products.map((p) => [p.id, { product: p, ...rate(p, config, evaluate) }]));
  const candidates: Candidate[] = [...rated.values()].map(({ product, scores, score }) => {
    const attributes: Record<string, number> = { ...scores };
    const lowest = (key: 'pde' | 'therapeuticDose') => lowestOf(product.actives, key)?.mg;
    const values = {
      score: score ?? undefined,
      lowestMaco: product.lowestMaco,
      pdeMg: lowest('pde'),
      therapeuticDoseMg: lowest('therapeuticDose'),
      minBatchSize: product.minBatchSize,
      maxDailyDose: product.maxDailyDose,
    };
    for (const [k, v] of Object.entries(values))
      if (v !== undefined && Number.isFinite(v)) attributes[k] = v;
    return { id: product.id, attributes };
  });
  const ranked: RankedProduct[] = [];
  for (const worst of worstFirst(candidates, criteria)) {
    const r = rated.get(worst.id);
    if (!r) continue;
    ranked.push({
      rank: ranked.length + 1,
      id: worst.id,
      scores: r.scores,
      score: r.score,
      lowestMaco: r.product.lowestMaco,
      derivation: r.derivation,
    });
  }
  let perEquipment: Record<string, string | null> | undefined;
  return {
    products: ranked,
    // Computed when read: the worst case of each train and item (worst-products) does not read it.
    get perEquipment() {
      return (perEquipment ??= worstCasePerEquipment(trains, candidates, criteria));
    },
    criteria,
    candidates,
  };
}
