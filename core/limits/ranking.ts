import { evaluateRpnExpression } from '../schemas/rpn-formula.schemas.ts';
import { toBase } from '../units/quantity.ts';
import type { QuantityOf } from '../units/quantity.ts';
import { factorInput, input, result, step } from './derivation.ts';
import type { Derivation, DerivationInput, DerivationStep } from './derivation.ts';
import {
  CLEANABILITY_GROUPS,
  DOSE_BANDS,
  SOLUBILITY_GROUPS,
  TOXICITY_BANDS,
  scoreByBands,
  selectWorstCase,
  toxicityScore,
  worstCasePerEquipment,
} from './risk.ts';
import type { Band, Candidate, SelectionCriterion } from './risk.ts';

/**
 * Worst-case ranking of a facility's products (reference §4.1): each product scored by the risk
 * scales of `risk.ts` (or the facility's own risk categories and formula), then ranked by the
 * facility's selection criteria with `selectWorstCase`.
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

// The actives' scale says "Moderate" where the APIC template says "medium".
const CLEANABILITY = { ...CLEANABILITY_GROUPS, moderate: CLEANABILITY_GROUPS.medium ?? 2 };

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

function bandText(bands: readonly Band[], score: number, unit: string): string {
  const band = bands.find((b) => b.score === score);
  if (!band) return `score ${score}`;
  const low =
    band.lower === undefined ? '' : `${band.lower} ${band.lowerInclusive === false ? '<' : '≤'} `;
  const high = band.upper === undefined ? '' : ` ${band.upperInclusive ? '≤' : '<'} ${band.upper}`;
  return `${low}x${high} ${unit}`;
}

/** The facility's category for a factor, matched by variable or name. */
function categoryFor(config: RankingConfig, factor: string) {
  return config.categories.find(
    (c) => c.variable.toLowerCase() === factor || c.name.trim().toLowerCase() === factor,
  );
}

interface Scored {
  inputs: DerivationInput[];
  steps: DerivationStep[];
  scores: Record<string, number>;
  missing: string[];
}

function scoreTerm(
  out: Scored,
  config: RankingConfig,
  factor: 'solubility' | 'cleanability',
  actives: RankingActive[],
  groups: Record<string, number>,
): void {
  const graded = actives.flatMap((a) => {
    const term = a[factor];
    const group = term === undefined ? undefined : groups[term.trim().toLowerCase()];
    return term !== undefined && group !== undefined ? [{ active: a.id, term, group }] : [];
  });
  // The worst active decides: the least soluble, the hardest to clean.
  const worst = graded.reduce<(typeof graded)[number] | undefined>(
    (w, g) => (!w || g.group > w.group ? g : w),
    undefined,
  );
  if (!worst) {
    out.missing.push(factor);
    return;
  }
  const category = categoryFor(config, factor);
  const level = category?.levels.find((l) => l.label.toLowerCase() === worst.term.toLowerCase());
  const score = level ? level.score : worst.group;
  const source = level
    ? `risk category ${category?.name}, level “${level.label}”`
    : `APIC ${factor} group of “${worst.term}”`;
  out.inputs.push(
    factorInput(factor, `${factor}: ${worst.term} (active ${worst.active})`, score, source),
  );
  out.steps.push(step(factor, `“${worst.term}” → ${source}`, score, 'points'));
  out.scores[factor] = score;
}

function lowestOf(actives: RankingActive[], key: 'therapeuticDose' | 'pde') {
  let best: { active: string; quantity: QuantityOf<'mass'>; mg: number } | undefined;
  for (const a of actives) {
    const q = a[key];
    if (!q) continue;
    const mg = toBase(q, 'mass');
    if (!best || mg < best.mg) best = { active: a.id, quantity: q, mg };
  }
  return best;
}

function scoreProduct(product: RankingProduct, config: RankingConfig): Scored {
  const out: Scored = { inputs: [], steps: [], scores: {}, missing: [] };
  scoreTerm(out, config, 'solubility', product.actives, SOLUBILITY_GROUPS);
  const dose = lowestOf(product.actives, 'therapeuticDose');
  if (dose) {
    const points = scoreByBands(dose.mg, DOSE_BANDS);
    out.inputs.push(
      input(
        'TD',
        `lowest therapeutic dose (active ${dose.active})`,
        dose.quantity,
        dose.mg,
        'mg',
        `actives[${dose.active}].therapeuticDose`,
      ),
    );
    out.steps.push(step('dose', `band ${bandText(DOSE_BANDS, points, 'mg')}`, points, 'points'));
    out.scores.dose = points;
  } else out.missing.push('dose');
  const pde = lowestOf(product.actives, 'pde');
  if (pde) {
    const ug = pde.mg * 1000;
    const points = scoreByBands(ug, TOXICITY_BANDS);
    out.inputs.push(
      input(
        'HBEL',
        `lowest PDE (active ${pde.active})`,
        pde.quantity,
        ug,
        'ug/day',
        `actives[${pde.active}].pde`,
      ),
    );
    out.steps.push(
      step('toxicity', `band ${bandText(TOXICITY_BANDS, points, 'ug/day')}`, points, 'points'),
    );
    out.scores.toxicity = points;
    const hbelScore = toxicityScore(pde.mg / 1000);
    out.steps.push(step('hbelScore', '−log10(HBEL in g/day)', hbelScore, 'points'));
    out.scores.hbelScore = hbelScore;
  } else out.missing.push('toxicity');
  scoreTerm(out, config, 'cleanability', product.actives, CLEANABILITY);
  return out;
}

function rate(product: RankingProduct, config: RankingConfig) {
  const scored = scoreProduct(product, config);
  const formula = config.formula ?? APIC;
  let score: number | null = null;
  let note: string | undefined;
  try {
    score = evaluateRpnExpression(formula.expression, scored.scores);
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
}

export function rankWorstCases(
  products: readonly RankingProduct[],
  trains: Record<string, readonly string[]>,
  config: RankingConfig,
): WorstCaseRanking {
  const criteria = rankingCriteria(config);
  const rated = new Map(products.map((p) => [p.id, { product: p, ...rate(p, config) }]));
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
  const pool = [...candidates];
  while (pool.length > 0) {
    const worst = selectWorstCase(pool, criteria);
    if (!worst) break;
    pool.splice(pool.indexOf(worst), 1);
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
  return {
    products: ranked,
    perEquipment: worstCasePerEquipment(trains, candidates, criteria),
    criteria,
  };
}
