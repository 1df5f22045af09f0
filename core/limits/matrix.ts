import { ARL, CRITERION_COUNT, CRITERION_KEYS, FORMULA, PRODUCT, isLower } from './compile.ts';
import { lowestOutcome, macFormulaOutcomes } from './mac-formula.ts';
import type { CompiledLimits, CriterionKey } from './compile.ts';

/**
 * One pair as the matrix loop sees it. The loop reuses a single instance (no allocation per
 * pair); a consumer that keeps pairs copies what it needs (see `contractPair` in `contract-output.ts`).
 */
export interface PairView {
  previous: number;
  next: number;
  /** Shared equipment indices in input order: `shared[0 .. sharedCount)`. */
  readonly shared: Int32Array;
  sharedCount: number;
  /** Area the surface limit is spread over, sqcm. */
  area: number;
  /** Criteria in mg (NaN = null), indexed by HEALTH, DOSE, LD50, ARL, PRODUCT. */
  readonly criteria: Float64Array;
  /** Index of the governing criterion, -1 when every criterion is null. */
  governing: number;
  /** Index of the previous product's active that gave the governing value, -1 when none. */
  governingActive: number;
  /** With `formula` governing: which of the input's MAC formulas, else -1. */
  governingFormula: number;
  maco: number;
  sal: number;
  salCapped: boolean;
  swabLimit: number;
  rinseLimit: number;
  /** Which rule set each sample limit: CALCULATED, PER_SAMPLE_CAP or FIXED. */
  swabRule: SampleRule;
  rinseRule: SampleRule;
}

export const CALCULATED = 0;
export const PER_SAMPLE_CAP = 1;
export const FIXED = 2;
export type SampleRule = typeof CALCULATED | typeof PER_SAMPLE_CAP | typeof FIXED;
/** Each rule's name where a pair travels as JSON, indexed by the rule. */
export const SAMPLE_RULE_NAMES = ['calculated', 'perSampleCap', 'fixed'] as const;
export type SampleRuleName = (typeof SAMPLE_RULE_NAMES)[number];

/** A sample limit and the rule that set it. */
export interface SampleValue {
  value: number;
  rule: SampleRule;
}

/**
 * The policy's per-sample cap and fixed limit are both ceilings (spec §3; LeBlanc "default
 * limits"): each is used only where it is lower than the calculated limit, so neither can loosen it.
 */
function ceiling(calculated: number, cap: number, fixed: number, out: SampleValue): SampleValue {
  out.value = calculated;
  out.rule = CALCULATED;
  if (cap < out.value) {
    out.value = cap;
    out.rule = PER_SAMPLE_CAP;
  }
  if (fixed < out.value) {
    out.value = fixed;
    out.rule = FIXED;
  }
  return out;
}

/** L4a: SAL × swab area × the swab's recovery (never divided by it, case G14), under the ceilings. */
export function swabLimitAt(m: CompiledLimits, sal: number, out: SampleValue): SampleValue {
  return ceiling(sal * m.swabAreaSqcm * m.swabRecovery, m.swabCap, m.fixedSwab, out);
}

/**
 * L4b for a rinse that contacts `area` sqcm carrying `maco` mg of residue: SAL × area × r / V
 * with useSAR (LeBlanc), else MACO × r / V (APIC target value), under the ceilings.
 */
export function rinseLimitAt(
  m: CompiledLimits,
  sal: number,
  maco: number,
  area: number,
  out: SampleValue,
): SampleValue {
  const carried = m.useSar ? sal * area : maco;
  return ceiling((carried * m.rinseRecovery) / m.rinseVolumeMl, m.rinseCap, m.fixedRinse, out);
}

/**
 * The rinse limit of one shared item rinsed on its own: its own area, and its share of the MACO
 * in proportion to area (reference §2.2, case D20), never the whole train's area.
 */
export function itemRinseLimit(
  m: CompiledLimits,
  view: PairView,
  equipmentIndex: number,
  out: SampleValue = { value: Number.NaN, rule: CALCULATED },
): SampleValue {
  const area = m.equipmentArea[equipmentIndex] ?? Number.NaN;
  return rinseLimitAt(m, view.sal, (view.maco * area) / view.area, area, out);
}

/** Product-wise and equipment-wise worst cases, gathered while the pairs stream past. */
export interface MatrixSummary {
  /**
   * Ordered pairs the matrix answers for (N − 1 for each product with a train; most of them are
   * never visited, the index shows they share nothing) and pairs that share equipment.
   */
  pairsEvaluated: number;
  pairCount: number;
  isPrevious: Uint8Array;
  lowestMaco: Float64Array;
  lowestSal: Float64Array;
  worstNext: Int32Array;
  inSomePair: Uint8Array;
  equipmentLowestSal: Float64Array;
  equipmentGoverningPrevious: Int32Array;
  equipmentGoverningNext: Int32Array;
}

export function newPairView(equipmentCount: number): PairView {
  return {
    previous: -1,
    next: -1,
    shared: new Int32Array(Math.max(equipmentCount, 1)),
    sharedCount: 0,
    area: Number.NaN,
    criteria: new Float64Array(CRITERION_COUNT),
    governing: -1,
    governingActive: -1,
    governingFormula: -1,
    maco: Number.NaN,
    sal: Number.NaN,
    salCapped: false,
    swabLimit: Number.NaN,
    rinseLimit: Number.NaN,
    swabRule: CALCULATED,
    rinseRule: CALCULATED,
  };
}

/**
 * `rule` first on purpose: an object literal that starts with `value` takes the same first V8 map
 * transition as every quantity (`{ value, unit }`), so its `value` field is as general as theirs;
 * the matrix then spent a fifth of its time in these stores and in garbage collection
 * (bench:limits CPU profile). Measured, not guessed: change it only with the bench at hand.
 */
const scratch: SampleValue = { rule: CALCULATED, value: Number.NaN };

/**
 * Fills `view` with every criterion and limit of one pair whose shared equipment is already in
 * `view.shared`/`sharedCount` and whose shared area is in `view.area`. The rules are those of
 * contracts/limits.md; the formulas are in `formulas.ts` and are inlined here for speed.
 */
/**
 * Every criterion of the pair previous `p` → next `n` in mg (NaN = null) into `c`, indexed by
 * HEALTH … FORMULA. They need no shared equipment, so a comparison can recompute one pair's
 * criteria on its own (core/assessments/change-impact.ts); `area` is the pair's area where the
 * caller has it (a MAC formula may use it), else it is found from the trains.
 */
export function pairCriteria(
  m: CompiledLimits,
  p: number,
  n: number,
  c: Float64Array,
  area = Number.NaN,
): FormulaCriterion {
  const mbs = m.minBatchSize[n] ?? Number.NaN;
  const mdd = m.maxDailyDose[n] ?? Number.NaN;
  const base = p * CRITERION_COUNT;
  // health = HBEL × MBS / (MF × MDD); dose = TDD × MBS / (SF × MDD); ld50 = NOEL × MBS / (SF × MDD)
  for (let k = 0; k < ARL; k++) {
    c[k] = ((m.factor[base + k] ?? Number.NaN) * mbs) / ((m.divisor[k] ?? 1) * mdd);
  }
  // General limit (APIC MAXCONC × MBS): per active, so a previous product without actives has none.
  c[ARL] = (m.factor[base + ARL] ?? Number.NaN) * (m.batchMassKg[n] ?? Number.NaN);
  c[PRODUCT] = m.factor[base + PRODUCT] ?? Number.NaN;
  const formula = m.macFormulas ? formulaCriterion(m, p, n, area) : NO_FORMULA;
  c[FORMULA] = formula.value;
  return formula;
}

/** The lowest MAC formula of a pair, with the formula and the active that gave it (-1: none). */
export interface FormulaCriterion {
  value: number;
  formula: number;
  active: number;
}

const NO_FORMULA: FormulaCriterion = { value: Number.NaN, formula: -1, active: -1 };

/** The lowest of the facility's MAC formulas for a pair, with the formula and active that gave it. */
export function formulaCriterion(
  m: CompiledLimits,
  p: number,
  n: number,
  area = Number.NaN,
): FormulaCriterion {
  const set = m.macFormulas;
  if (!set) return NO_FORMULA;
  const a = set.usesArea && Number.isNaN(area) ? pairArea(m, p, n) : area;
  return lowestOutcome(macFormulaOutcomes(set, m.input, p, n, a), isLower) ?? NO_FORMULA;
}

/** The area a pair's surface limit is spread over: shared items, or the previous train's. */
export function pairArea(m: CompiledLimits, p: number, n: number): number {
  if (m.previousTrainBasis) return m.trainArea[p] ?? Number.NaN;
  const { count, area } = sharedItems(m, p, n);
  return count === 0 ? Number.NaN : area;
}

/** The items of n's train that p's has too, in n's order (into `out` when given), and their area. */
function sharedItems(m: CompiledLimits, p: number, n: number, out?: Int32Array) {
  const pItems = new Set<number>();
  for (let t = m.trainStart[p] ?? 0; t < (m.trainStart[p + 1] ?? 0); t++) {
    pItems.add(m.trainItems[t] ?? 0);
  }
  let count = 0;
  let area = 0;
  for (let t = m.trainStart[n] ?? 0; t < (m.trainStart[n + 1] ?? 0); t++) {
    const e = m.trainItems[t] ?? 0;
    if (pItems.has(e)) {
      if (out) out[count] = e;
      count++;
      area += m.equipmentArea[e] ?? 0;
    }
  }
  return { count, area };
}

/** Criteria as pairCriteria gives them, by key: converted from mg by `inUnit`, null where none. */
export function criteriaByKey(
  c: ArrayLike<number>,
  inUnit: (mg: number) => number = (mg) => mg,
): Record<CriterionKey, number | null> {
  const byKey = {} as Record<CriterionKey, number | null>;
  CRITERION_KEYS.forEach((key, k) => {
    const value = inUnit(c[k] ?? Number.NaN);
    byKey[key] = Number.isFinite(value) ? value : null;
  });
  return byKey;
}

export function evaluatePair(m: CompiledLimits, view: PairView): void {
  const p = view.previous;
  const base = p * CRITERION_COUNT;
  const c = view.criteria;
  if (m.previousTrainBasis) view.area = m.trainArea[p] ?? Number.NaN;
  const formula = pairCriteria(m, p, view.next, c, view.area);

  let governing = -1;
  let maco = Number.NaN;
  for (let k = 0; k < FORMULA; k++) {
    const v = c[k] ?? Number.NaN;
    if (Number.isNaN(v)) continue;
    if (governing === -1 || isLower(v, maco)) {
      governing = k;
      maco = v;
      if (m.firstAvailable) break;
    }
  }
  view.governingFormula = -1;
  view.governingActive =
    governing === -1 || governing === PRODUCT ? -1 : (m.factorActive[base + governing] ?? -1);
  // A facility's MAC formula is one more criterion and the lowest governs, even after the first
  // available one: a formula the site approved may only tighten a limit, never loosen it (EU GMP
  // Annex 15 §10, limits on a toxicological basis; reference §1.6, every criterion computed, the
  // lowest governs), so a custom criterion can never stand in for a health-based one.
  if (!Number.isNaN(formula.value) && (governing === -1 || isLower(formula.value, maco))) {
    governing = FORMULA;
    maco = formula.value;
    view.governingFormula = formula.formula;
    view.governingActive = formula.active;
  }
  view.governing = governing;
  view.maco = maco;

  let sal = maco / view.area;
  let capped = false;
  // Residue limit (L3 cap): used where it is lower than the calculated surface limit.
  if (m.residueLimit < sal) {
    sal = m.residueLimit;
    capped = true;
  }
  view.sal = sal;
  view.salCapped = capped;
  // Recovery lowers what the laboratory may measure (LeBlanc; never divide by recovery, case G14).
  swabLimitAt(m, sal, scratch);
  view.swabLimit = scratch.value;
  view.swabRule = scratch.rule;
  rinseLimitAt(m, sal, maco, view.area, scratch);
  view.rinseLimit = scratch.value;
  view.rinseRule = scratch.rule;
}

export function newSummary(m: CompiledLimits): MatrixSummary {
  return {
    pairsEvaluated: 0,
    pairCount: 0,
    isPrevious: new Uint8Array(m.productCount),
    lowestMaco: new Float64Array(m.productCount).fill(Number.POSITIVE_INFINITY),
    lowestSal: new Float64Array(m.productCount).fill(Number.POSITIVE_INFINITY),
    worstNext: new Int32Array(m.productCount).fill(-1),
    inSomePair: new Uint8Array(m.equipmentCount),
    equipmentLowestSal: new Float64Array(m.equipmentCount).fill(Number.POSITIVE_INFINITY),
    equipmentGoverningPrevious: new Int32Array(m.equipmentCount).fill(-1),
    equipmentGoverningNext: new Int32Array(m.equipmentCount).fill(-1),
  };
}

/** Folds one pair into the product-wise and equipment-wise worst cases. */
function recordPair(s: MatrixSummary, view: PairView): void {
  const p = view.previous;
  s.pairCount++;
  s.isPrevious[p] = 1;
  if (isLower(view.maco, s.lowestMaco[p] ?? 0)) {
    s.lowestMaco[p] = view.maco;
    s.worstNext[p] = view.next;
  }
  const sal = view.sal;
  if (isLower(sal, s.lowestSal[p] ?? 0)) s.lowestSal[p] = sal;
  for (let i = 0; i < view.sharedCount; i++) {
    const e = view.shared[i] ?? 0;
    s.inSomePair[e] = 1;
    if (isLower(sal, s.equipmentLowestSal[e] ?? 0)) {
      s.equipmentLowestSal[e] = sal;
      s.equipmentGoverningPrevious[e] = p;
      s.equipmentGoverningNext[e] = view.next;
    }
  }
}

/**
 * Finds each previous product's pairs through the equipment → products index: the products that
 * share an item with P are the products of P's items, so the loop never visits the many pairs that
 * share nothing (three in four of a 2,000-product facility on 1,000 items). One finder serves one
 * walk over the previous products; its arrays are reused from one previous product to the next.
 */
interface PairFinder {
  /**
   * The next products of the previous product p as a bit set (bit n % 32 of word n / 32), read
   * back in ascending order into `nexts[0 .. count)`: cheaper than sorting them.
   */
  readonly nextBits: Int32Array;
  readonly nexts: Int32Array;
  /** Per next product n: how many items it shares with p, and their summed area. */
  readonly sharedCount: Int32Array;
  readonly sharedArea: Float64Array;
  /**
   * The shared items of n as a chain of links, in input order: the first is
   * `linkItem[firstLink[n]]`, each next one at `linkNext` of the one before. `lastLink[n]` is
   * where the next shared item is appended. At most one link per train entry, so never more links
   * than `trainItems` has.
   */
  readonly firstLink: Int32Array;
  readonly lastLink: Int32Array;
  readonly linkItem: Int32Array;
  readonly linkNext: Int32Array;
}

function newPairFinder(m: CompiledLimits): PairFinder {
  return {
    nextBits: new Int32Array(Math.ceil(m.productCount / 32)),
    nexts: new Int32Array(m.productCount),
    sharedCount: new Int32Array(m.productCount),
    sharedArea: new Float64Array(m.productCount),
    firstLink: new Int32Array(m.productCount),
    lastLink: new Int32Array(m.productCount),
    linkItem: new Int32Array(m.trainItems.length),
    linkNext: new Int32Array(m.trainItems.length),
  };
}

/**
 * Lists in `f.nexts`, in input order, every other product made on one of p's items, with the
 * items each shares and their area. p's train is walked in input order, so each next product's
 * items come in input order and its area is summed in that order, as comparing the two trains
 * item by item did (the same sum to the last bit). Returns how many next products, and counts
 * p's N − 1 ordered pairs as considered in the summary when p has a train.
 */
function findNexts(m: CompiledLimits, f: PairFinder, p: number, s: MatrixSummary): number {
  const { trainStart, trainItems, equipmentStart, equipmentProducts, equipmentArea } = m;
  const { nextBits, nexts, sharedCount, sharedArea, firstLink, lastLink, linkItem, linkNext } = f;
  let links = 0;
  const pEnd = trainStart[p + 1] ?? 0;
  if (trainStart[p] === pEnd) return 0;
  s.pairsEvaluated += m.productCount - 1;
  for (let t = trainStart[p] ?? 0; t < pEnd; t++) {
    const e = trainItems[t] ?? 0;
    const area = equipmentArea[e] ?? 0;
    const eEnd = equipmentStart[e + 1] ?? 0;
    for (let u = equipmentStart[e] ?? 0; u < eEnd; u++) {
      const n = equipmentProducts[u] ?? 0;
      if (n === p) continue;
      const word = n >>> 5;
      const bit = 1 << (n & 31);
      const bits = nextBits[word] ?? 0;
      if ((bits & bit) !== 0) {
        linkNext[lastLink[n] ?? 0] = links;
        sharedCount[n] = (sharedCount[n] ?? 0) + 1;
        sharedArea[n] = (sharedArea[n] ?? 0) + area;
      } else {
        nextBits[word] = bits | bit;
        firstLink[n] = links;
        sharedCount[n] = 1;
        sharedArea[n] = area;
      }
      lastLink[n] = links;
      linkItem[links++] = e;
    }
  }
  let count = 0;
  for (let word = 0; word < nextBits.length; word++) {
    let bits = nextBits[word] ?? 0;
    nextBits[word] = 0;
    while (bits !== 0) {
      const lowest = bits & -bits;
      nexts[count++] = word * 32 + 31 - Math.clz32(lowest);
      bits ^= lowest;
    }
  }
  return count;
}

/**
 * Puts the pair p→n, the items it shares and their area (from `findNexts`) into `view`,
 * evaluates it and folds it into the summary.
 */
function walkPair(
  m: CompiledLimits,
  f: PairFinder,
  p: number,
  n: number,
  view: PairView,
  s: MatrixSummary,
): void {
  const count = f.sharedCount[n] ?? 0;
  let link = f.firstLink[n] ?? 0;
  for (let i = 0; i < count; i++) {
    view.shared[i] = f.linkItem[link] ?? 0;
    link = f.linkNext[link] ?? 0;
  }
  view.previous = p;
  view.next = n;
  view.sharedCount = count;
  view.area = f.sharedArea[n] ?? Number.NaN;
  evaluatePair(m, view);
  recordPair(s, view);
}

/**
 * The MAC matrix: every ordered pair (previous ≠ next) whose trains share equipment, previous in
 * input order then next in input order. `onPair` sees each pair in that order; the returned
 * summary holds the product-wise and equipment-wise worst cases.
 */
export function runMatrix(m: CompiledLimits, onPair?: (pair: PairView) => void): MatrixSummary {
  const s = newSummary(m);
  const view = newPairView(m.equipmentCount);
  const f = newPairFinder(m);
  for (let p = 0; p < m.productCount; p++) {
    const count = findNexts(m, f, p, s);
    for (let i = 0; i < count; i++) {
      walkPair(m, f, p, f.nexts[i] ?? 0, view, s);
      if (onPair) onPair(view);
    }
  }
  return s;
}

/**
 * The matrix one previous product at a time, in whatever order the caller asks for them: each
 * call hands `onPair` the pairs of p in the matrix's order (next ascending), evaluated as
 * `runMatrix` evaluates them (the same values to the last bit). For a consumer that needs one row
 * of a matrix while it walks another (pair-walk.ts), instead of keeping every pair of it.
 */
export function matrixRowWalk(
  m: CompiledLimits,
): (p: number, onPair: (pair: PairView) => void) => void {
  const view = newPairView(m.equipmentCount);
  const f = newPairFinder(m);
  // walkPair folds each pair into a summary; this one is not read (runMatrix gives the real one).
  const unread = newSummary(m);
  return (p, onPair) => {
    const count = findNexts(m, f, p, unread);
    for (let i = 0; i < count; i++) {
      walkPair(m, f, p, f.nexts[i] ?? 0, view, unread);
      onPair(view);
    }
  };
}

/**
 * Where each previous product's pairs start in the matrix's order: previous product p has the
 * pairs `rowStart[p] .. rowStart[p + 1]`, so a consumer that keeps every pair can size its arrays
 * once. Finds the pairs as `runMatrix` does, without evaluating them.
 */
export function matrixRows(m: CompiledLimits): Int32Array {
  const s = newSummary(m);
  const f = newPairFinder(m);
  const rowStart = new Int32Array(m.productCount + 1);
  for (let p = 0; p < m.productCount; p++) {
    rowStart[p + 1] = (rowStart[p] ?? 0) + findNexts(m, f, p, s);
  }
  return rowStart;
}

/**
 * The same matrix as a generator, for a consumer that must pause between pairs (an HTTP response
 * waiting for its socket to drain). Yields the reused view; `summary` is complete when done.
 */
export function* matrixPairs(m: CompiledLimits, summary: MatrixSummary): Generator<PairView> {
  const view = newPairView(m.equipmentCount);
  const f = newPairFinder(m);
  for (let p = 0; p < m.productCount; p++) {
    const count = findNexts(m, f, p, summary);
    for (let i = 0; i < count; i++) {
      walkPair(m, f, p, f.nexts[i] ?? 0, view, summary);
      yield view;
    }
  }
}

/**
 * Evaluates one pair by product index outside the matrix loop (explanations, the solver, what-if).
 * Returns false when the two trains share no equipment, in which case there is no pair.
 */
export function evaluatePairAt(m: CompiledLimits, p: number, n: number, view: PairView): boolean {
  if (p === n) return false;
  const { count: sharedCount, area } = sharedItems(m, p, n, view.shared);
  if (sharedCount === 0) return false;
  view.previous = p;
  view.next = n;
  view.sharedCount = sharedCount;
  view.area = area;
  evaluatePair(m, view);
  return true;
}
