/**
 * Worst-case ranking: configurable risk scales, formulas and categories, and the selection
 * criteria that pick the worst-case product per equipment item or group (reference §4).
 */

/** FMEA risk priority number, RPN = severity × occurrence × detectability (ICH Q9 tools). */
export function rpn(severity: number, occurrence: number, detectability: number, scaleMax = 5) {
  for (const v of [severity, occurrence, detectability]) {
    if (!Number.isInteger(v) || v < 1 || v > scaleMax) {
      throw new RangeError(`RPN factors are integers from 1 to ${scaleMax}, got ${v}`);
    }
  }
  return severity * occurrence * detectability;
}

/**
 * One band of a numeric scale. Bounds are explicit about inclusion so that adjacent bands meet
 * without gaps (the open-source template's "99 < x < 100" gaps, case D25).
 */
export interface Band {
  score: number;
  /** lower bound; `lowerInclusive` defaults to true */
  lower?: number;
  lowerInclusive?: boolean;
  /** upper bound; `upperInclusive` defaults to false (half-open [lower, upper)) */
  upper?: number;
  upperInclusive?: boolean;
}

function inBand(value: number, band: Band): boolean {
  if (band.lower !== undefined) {
    if (band.lowerInclusive === false ? !(value > band.lower) : !(value >= band.lower))
      return false;
  }
  if (band.upper !== undefined) {
    if (band.upperInclusive ? !(value <= band.upper) : !(value < band.upper)) return false;
  }
  return true;
}

/** The score of the first band holding the value; throws when no band holds it. */
export function scoreByBands(value: number, bands: readonly Band[]): number {
  for (const band of bands) if (inBand(value, band)) return band.score;
  throw new RangeError(`no band holds ${value}`);
}

/**
 * Checks that bands sorted from high to low values tile the line without gaps or overlaps:
 * each band's lower bound is the next band's upper bound, included in exactly one of them.
 */
export function bandProblems(bands: readonly Band[]): string[] {
  const problems: string[] = [];
  for (let i = 0; i + 1 < bands.length; i++) {
    const a = bands[i];
    const b = bands[i + 1];
    if (!a || !b) continue;
    if (a.lower !== b.upper)
      problems.push(`gap or overlap between scores ${a.score} and ${b.score}`);
    else if ((a.lowerInclusive ?? true) === (b.upperInclusive ?? false)) {
      problems.push(
        `bound ${a.lower} is in ${(a.lowerInclusive ?? true) ? 'both' : 'neither'} bands`,
      );
    }
  }
  return problems;
}

/** USP solubility terms → group (template in reference §4.1). */
export const SOLUBILITY_GROUPS: Record<string, number> = {
  'very soluble': 1,
  'freely soluble': 1,
  soluble: 2,
  'sparingly soluble': 2,
  'slightly soluble': 3,
  'very slightly soluble': 4,
  'practically insoluble': 5,
  insoluble: 5,
};

export const CLEANABILITY_GROUPS: Record<string, number> = { easy: 1, medium: 2, difficult: 3 };

/** Minimum therapeutic dose in mg: > 1000 → 1 … < 1 → 5, with no gaps. */
export const DOSE_BANDS: readonly Band[] = [
  { score: 1, lower: 1000, lowerInclusive: false },
  { score: 2, lower: 100, upper: 1000, upperInclusive: true },
  { score: 3, lower: 10, upper: 100 },
  { score: 4, lower: 1, upper: 10 },
  { score: 5, upper: 1 },
];

/** HBEL (ADE/PDE) in ug/day: > 500 → 1 … < 1 → 5, with no gaps. */
export const TOXICITY_BANDS: readonly Band[] = [
  { score: 1, lower: 500, lowerInclusive: false },
  { score: 2, lower: 100, upper: 500, upperInclusive: true },
  { score: 3, lower: 10, upper: 100 },
  { score: 4, lower: 1, upper: 10 },
  { score: 5, upper: 1 },
];

export function categoryScore(term: string, groups: Record<string, number>): number {
  const score = groups[term.trim().toLowerCase()];
  if (score === undefined) throw new RangeError(`unknown term ${JSON.stringify(term)}`);
  return score;
}

export interface WorstCaseRatingInput {
  solubility: string;
  minDoseMg: number;
  hbelUgPerDay: number;
  cleanability: string;
}

export interface WorstCaseRating {
  solubility: number;
  dose: number;
  toxicity: number;
  cleanability: number;
  /** WCR = product of the four groups. */
  rating: number;
}

/** APIC-style worst-case rating; the product of four ordinal groups (reference §4.1, D25). */
export function worstCaseRating(input: WorstCaseRatingInput): WorstCaseRating {
  const solubility = categoryScore(input.solubility, SOLUBILITY_GROUPS);
  const dose = scoreByBands(input.minDoseMg, DOSE_BANDS);
  const toxicity = scoreByBands(input.hbelUgPerDay, TOXICITY_BANDS);
  const cleanability = categoryScore(input.cleanability, CLEANABILITY_GROUPS);
  return {
    solubility,
    dose,
    toxicity,
    cleanability,
    rating: solubility * dose * toxicity * cleanability,
  };
}

/**
 * HBEL-derived toxicity score, logarithmic like pH (Walsh et al.; ASTM E3106):
 * score = −log10(HBEL in g/day), so 1 ug/day → 6 and 1 mg/day → 3. (Reference: VERIFY the
 * exact thresholds in ASTM E3106 before using it for more than ranking.)
 */
export function toxicityScore(hbelGramsPerDay: number): number {
  if (!(hbelGramsPerDay > 0)) throw new RangeError('the HBEL must be positive');
  return -Math.log10(hbelGramsPerDay);
}

/** A configurable risk formula over named factor scores. */
export type RiskFormula =
  | { kind: 'product'; factors: string[] }
  | { kind: 'sum'; factors: string[] }
  | { kind: 'weightedSum'; weights: Record<string, number> };

export function evaluateRiskFormula(formula: RiskFormula, scores: Record<string, number>): number {
  const get = (name: string) => {
    const v = scores[name];
    if (v === undefined) throw new RangeError(`no score for ${name}`);
    return v;
  };
  switch (formula.kind) {
    case 'product':
      return formula.factors.reduce((acc, f) => acc * get(f), 1);
    case 'sum':
      return formula.factors.reduce((acc, f) => acc + get(f), 0);
    case 'weightedSum':
      return Object.entries(formula.weights).reduce((acc, [f, w]) => acc + w * get(f), 0);
  }
}

/** A risk category (for example Low / Medium / High) over a score range [minScore, maxScore). */
export interface RiskCategory {
  name: string;
  minScore: number;
  maxScore?: number;
}

export function riskCategory(score: number, categories: readonly RiskCategory[]): string {
  const found = categories.find(
    (c) => score >= c.minScore && (c.maxScore === undefined || score < c.maxScore),
  );
  if (!found) throw new RangeError(`no category holds score ${score}`);
  return found.name;
}

/** One selection criterion: a numeric attribute and which end is worse. */
export interface SelectionCriterion {
  attribute: string;
  worst: 'highest' | 'lowest';
}

export interface Candidate {
  id: string;
  attributes: Record<string, number>;
}

/**
 * Picks the worst case by the criteria in order; later criteria break ties, then input order.
 * A candidate without an attribute ranks as least severe on that criterion.
 */
export function selectWorstCase(
  candidates: readonly Candidate[],
  criteria: readonly SelectionCriterion[],
): Candidate | undefined {
  let best: Candidate | undefined;
  for (const c of candidates) {
    if (!best || compareSeverity(c, best, criteria) > 0) best = c;
  }
  return best;
}

/**
 * The candidates worst first, in the order `selectWorstCase` picks them one after another (ties
 * keep input order): a stable sort, not a pick per place, which at 5,000 products was 12.5
 * million comparisons. A NaN makes the comparison no order a sort can use, so then the picks.
 */
export function worstFirst(
  candidates: readonly Candidate[],
  criteria: readonly SelectionCriterion[],
): Candidate[] {
  const hasNaN = candidates.some((c) =>
    criteria.some(({ attribute }) => Number.isNaN(c.attributes[attribute])),
  );
  if (!hasNaN) return [...candidates].sort((a, b) => compareSeverity(b, a, criteria));
  const ordered: Candidate[] = [];
  const pool = [...candidates];
  for (
    let worst = selectWorstCase(pool, criteria);
    worst;
    worst = selectWorstCase(pool, criteria)
  ) {
    pool.splice(pool.indexOf(worst), 1);
    ordered.push(worst);
  }
  return ordered;
}

/** Positive when `a` is the worse case. */
function compareSeverity(a: Candidate, b: Candidate, criteria: readonly SelectionCriterion[]) {
  for (const { attribute, worst } of criteria) {
    const sign = worst === 'highest' ? 1 : -1;
    const fallback = worst === 'highest' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
    const x = a.attributes[attribute] ?? fallback;
    const y = b.attributes[attribute] ?? fallback;
    if (x !== y) return sign * (x > y ? 1 : -1);
  }
  return 0;
}

/** The worst-case product of every equipment item or group (bracketing, reference §4.1). */
export function worstCasePerGroup(
  groups: Record<string, readonly string[]>,
  candidates: readonly Candidate[],
  criteria: readonly SelectionCriterion[],
): Record<string, string | null> {
  const byId = new Map(candidates.map((c) => [c.id, c]));
  const out: Record<string, string | null> = {};
  for (const [group, members] of Object.entries(groups)) {
    const pool = members.flatMap((id) => byId.get(id) ?? []);
    out[group] = selectWorstCase(pool, criteria)?.id ?? null;
  }
  return out;
}

/** Cleaning process capability Cpu = (USL − mean) / (3 s), s the sample SD (reference §4.2). */
export function processCapability(resultsPctOfLimit: readonly number[], usl = 100) {
  const n = resultsPctOfLimit.length;
  if (n < 2) throw new RangeError('Cpu needs at least two results');
  const mean = resultsPctOfLimit.reduce((a, b) => a + b, 0) / n;
  const variance = resultsPctOfLimit.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1);
  const sd = Math.sqrt(variance);
  return { mean, sd, cpu: (usl - mean) / (3 * sd) };
}

/** WHO TRS 937 Annex 4 App. 3: > 80 % good, > 50 % reasonable, below questionable (80 → good). */
export function recoveryClass(percent: number): 'good' | 'reasonable' | 'questionable' {
  if (percent >= 80) return 'good';
  if (percent >= 50) return 'reasonable';
  return 'questionable';
}

/** Factor that corrects a result for recovery (100/80 = 1.25). */
export function recoveryCorrectionFactor(percent: number): number {
  return 100 / Math.min(percent, 100);
}

/**
 * The worst-case product of each equipment item: the products made on it (from the trains) are
 * its group.
 */
export function worstCasePerEquipment(
  trains: Record<string, readonly string[]>,
  candidates: readonly Candidate[],
  criteria: readonly SelectionCriterion[],
): Record<string, string | null> {
  const groups = new Map<string, string[]>();
  for (const [product, items] of Object.entries(trains)) {
    for (const item of new Set(items)) {
      const members = groups.get(item) ?? [];
      members.push(product);
      groups.set(item, members);
    }
  }
  return worstCasePerGroup(Object.fromEntries(groups), candidates, criteria);
}
