import { formatNumber, unitLabel } from '../units/format-number.ts';
import { CRITERION_COUNT, criterionKeyAt } from '../limits/compile.ts';
import type { CompiledLimits } from '../limits/compile.ts';
import { criteriaByKey, evaluatePairAt, newPairView, pairCriteria } from '../limits/matrix.ts';
import type { PairView } from '../limits/matrix.ts';
import type { LimitsInput } from '../limits/model.ts';
import {
  criteriaMovedAt,
  moved,
  percent,
  percentOrNaN,
  productPlaces,
  walkPairs,
} from '../limits/pair-walk.ts';
import type { BeforePair, MatrixRun } from '../limits/pair-walk.ts';
import type {
  TCriterionValues,
  TImpactItem,
  TImpactKind,
  TImpactPair,
  TImpactSummary,
} from '../schemas/change-assessments.schemas.ts';
import { IMPACT_KINDS } from '../schemas/change-assessments.schemas.ts';
import { convertValue } from '../units/quantity.ts';
import { ImpactSide } from './impact-sides.ts';
import type {
  AnalyticalMethod,
  ImpactTrain,
  SampleResult,
  TrainWorstCase,
} from './impact-sides.ts';
import { policyUnits, rinseIn } from './impact-units.ts';
import type { ImpactUnits } from './impact-units.ts';
import { LowestLimits } from './lowest-limits.ts';
import { TopPairs } from './top-pairs.ts';

export type {
  AnalyticalMethod,
  ImpactTrain,
  SampleResult,
  TrainWorstCase,
} from './impact-sides.ts';
export type { ImpactUnits, SampleType } from './impact-units.ts';

export interface ImpactContext {
  /**
   * The productions (equipment trains and the products made on them) with each one's computed
   * worst case before and after, for `worstCaseChanged`.
   */
  trains: readonly ImpactTrain[];
  /** Analytical methods with their LOQ, for `belowLoq`. */
  methods: readonly AnalyticalMethod[];
  /** Sample results, for `resultAtRisk` (server/modules/change-assessments/impact-results.ts). */
  results: readonly SampleResult[];
  /**
   * Each train's worst case before and after (TrainWorstCase), in the order of `trains`, named
   * from the two matrix runs the impact makes anyway (a ranking needs each product's lowest
   * MACO): no third and fourth run of the same matrices (issue 34). Absent: none is named.
   */
  worstCases?: (before: MatrixRun, after: MatrixRun) => readonly TrainWorstCase[];
  /** Units the items and pairs show; default the after policy's limitRepresentation. */
  units?: ImpactUnits;
  /** Pairs listed at most (the rest are counted only); default 10,000. */
  maxPairs?: number;
}

export interface ChangeImpact {
  items: TImpactItem[];
  pairs: TImpactPair[];
  summary: TImpactSummary;
}

export const MAX_IMPACT_PAIRS = 10_000;

/** A result over this share of its limit is at risk; over the limit it fails. */
export const AT_RISK_SHARE = 0.5;

type Limits = NonNullable<TImpactItem['before']>;
type Four = [maco: number, sal: number, swab: number, rinse: number];
/** A pair's four limits as read (a tuple, or one of the walk's reused arrays). */
type FourOf = Readonly<Four> | Float64Array;

const shown = (x: number): number | null => (Number.isFinite(x) ? x : null);
const sig = (x: number | null) => (x === null ? 'none' : formatNumber(x));
const signed = (x: number | null) => (x === null ? '' : `${x > 0 ? '+' : ''}${sig(x)} %`);
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
/** 2nd, 3rd, 4th, 11th, 21st… */
const ordinal = (n: number) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th');
  return `${n}${suffix}`;
};

/**
 * The largest change by size of the four limits, signed (negative = tighter), into `out[0]`;
 * NaN when none. Written into an array, as a number returned from a call the compiler does not
 * inline is boxed, once a pair (issue 34).
 */
function largestChange(before: FourOf, after: FourOf, out: Float64Array): void {
  let best = Number.NaN;
  for (let i = 0; i < 4; i++) {
    const change = percentOrNaN(before[i] ?? Number.NaN, after[i] ?? Number.NaN);
    if (!Number.isNaN(change) && (Number.isNaN(best) || Math.abs(change) > Math.abs(best))) {
      best = change;
    }
  }
  out[0] = best;
}

function anyLower(before: FourOf, after: FourOf): boolean {
  for (let i = 0; i < 4; i++) {
    const b = before[i] ?? Number.NaN;
    const a = after[i] ?? Number.NaN;
    if (a < b && moved(b, a)) return true;
  }
  return false;
}

function anyMoved(before: FourOf, after: FourOf): boolean {
  for (let i = 0; i < 4; i++)
    if (moved(before[i] ?? Number.NaN, after[i] ?? Number.NaN)) return true;
  return false;
}

/** A before pair's MACO, SAL, swab and rinse limits into `out`. */
function beforeLimits(b: BeforePair, out: Float64Array): void {
  out[0] = b.maco;
  out[1] = b.sal;
  out[2] = b.swab;
  out[3] = b.rinse;
}

/** The impact of a change: the limits of `before` and `after` compared pair by pair. */
export function changeImpact(
  before: LimitsInput,
  after: LimitsInput,
  context: ImpactContext,
): ChangeImpact {
  const units = context.units ?? policyUnits(after.policy);
  const unitNames = { ...units };
  const display = (v: FourOf, governing: number): Limits => ({
    maco: shown(convertValue(v[0], 'mg', units.maco)),
    sal: shown(convertValue(v[1], 'mg/sqcm', units.sal)),
    swab: shown(convertValue(v[2], 'mg/swab', units.swab)),
    rinse: shown(rinseIn(v[3], units.rinse)),
    criterion: criterionKeyAt(governing),
  });
  const shownLimits = new Float64Array(4);
  const limitsOf = (l: LowestLimits, i: number): Limits | null =>
    i < 0 || (l.pairs[i] ?? 0) === 0 ? null : display(l.read(i, shownLimits), l.governing[i] ?? -1);

  const sideB = new ImpactSide(before, context.trains, context.methods, context.results, true);
  const sideA = new ImpactSide(after, context.trains, context.methods, context.results);
  const toBefore = productPlaces(after, before);
  const toAfter = productPlaces(before, after);
  const countA = after.products.length;
  const countB = before.products.length;

  // Per previous product (after's positions): pairs moved, largest change, tighter, criterion switches.
  const movedPairs = new Int32Array(countA);
  const largest = new Float64Array(countA);
  const hasLargest = new Uint8Array(countA);
  const tighter = new Uint8Array(countA);
  const switched = new Int32Array(countA);
  // New pairs by the product they are charged to (after's positions), gone ones (before's).
  const added = new LowestLimits(countA);
  const addedTighter = new Uint8Array(countA);
  const removed = new LowestLimits(countB);
  const top = new TopPairs(context.maxPairs ?? MAX_IMPACT_PAIRS);
  const summary: TImpactSummary = {
    pairsBefore: 0,
    pairsAfter: 0,
    pairsMoved: 0,
    pairsTightened: 0,
    pairsAdded: 0,
    pairsRemoved: 0,
    criterionChanged: 0,
    worstCasesChanged: 0,
    belowLoq: 0,
    resultsAtRisk: 0,
    criteriaMoved: 0,
    pairsListed: 0,
  };
  /** Keeps the pair of `view` if it is among the highest scored so far (`top.offered[0]`). */
  const keep = (view: PairView, k: number) => {
    const slot = top.put(view.previous, view.next, k);
    if (slot < 0) return;
    top.maco[slot] = view.maco;
    top.sal[slot] = view.sal;
    top.swab[slot] = view.swabLimit;
    top.rinse[slot] = view.rinseLimit;
    top.governing[slot] = view.governing;
  };

  // One pair's criteria on the before side, recomputed only for pairs whose limits stay.
  const criteriaThen = new Float64Array(CRITERION_COUNT);
  // Each pair's limits now and then, in two arrays reused pair after pair: 1.5 million pairs at
  // 5,000 products would otherwise leave two arrays each to the collector (issue 34).
  const now = new Float64Array(4);
  const then = new Float64Array(4);
  const lowestThen = new Float64Array(4);
  const largestNow = new Float64Array(1);

  const {
    before: kept,
    after: compiledAfter,
    afterSummary,
  } = walkPairs(before, after, {
    onBefore(view, m) {
      sideB.add(view, m);
    },
    onPair(view, b, side, m) {
      sideA.add(view, m);
      const p = view.previous;
      now[0] = view.maco;
      now[1] = view.sal;
      now[2] = view.swabLimit;
      now[3] = view.rinseLimit;
      if (!b) {
        // A new pair is charged to its new product, else (a train change) to its previous.
        const owner = (toBefore[p] ?? -1) < 0 ? p : (toBefore[view.next] ?? -1) < 0 ? view.next : p;
        added.fold(owner, now, view.governing);
        const ownerBefore = toBefore[owner] ?? -1;
        if (ownerBefore >= 0 && anyLower(sideB.lowest.read(ownerBefore, lowestThen), now)) {
          addedTighter[owner] = 1;
        }
        summary.pairsAdded++;
        top.offered[0] = Number.POSITIVE_INFINITY;
        keep(view, -1);
        return;
      }
      beforeLimits(b, then);
      const didMove = anyMoved(then, now);
      const didSwitch = b.governing !== view.governing;
      if (didSwitch) switched[p] = (switched[p] ?? 0) + 1;
      if (!didMove && !didSwitch) {
        // The limit stays, but a criterion that does not govern moved: listed, to say why.
        if (criteriaMovedAt(side, b, view.criteria, criteriaThen)) {
          summary.criteriaMoved = (summary.criteriaMoved ?? 0) + 1;
          top.offered[0] = 0;
          keep(view, b.k);
        }
        return;
      }
      // A criterion switch alone scores 0.
      top.offered[0] = 0;
      if (didMove) {
        summary.pairsMoved++;
        movedPairs[p] = (movedPairs[p] ?? 0) + 1;
        if (anyLower(then, now)) {
          summary.pairsTightened++;
          tighter[p] = 1;
        }
        largestChange(then, now, largestNow);
        const change = largestNow[0] ?? Number.NaN;
        // A limit that appears or disappears outranks any percentage.
        top.offered[0] = Number.isNaN(change) ? Number.MAX_VALUE : Math.abs(change);
        if (
          !Number.isNaN(change) &&
          (!hasLargest[p] || Math.abs(change) > Math.abs(largest[p] ?? 0))
        ) {
          largest[p] = change;
          hasLargest[p] = 1;
        }
      }
      keep(view, b.k);
    },
    onRemoved(b) {
      const pb = b.previous;
      const nb = b.next;
      const owner = (toAfter[pb] ?? -1) < 0 ? pb : (toAfter[nb] ?? -1) < 0 ? nb : pb;
      beforeLimits(b, then);
      removed.fold(owner, then, b.governing);
      summary.pairsRemoved++;
      top.offered[0] = Number.POSITIVE_INFINITY;
      const slot = top.put(-1 - pb, -1 - nb, b.k);
      if (slot >= 0) {
        top.maco[slot] = Number.NaN;
        top.sal[slot] = Number.NaN;
        top.swab[slot] = Number.NaN;
        top.rinse[slot] = Number.NaN;
        top.governing[slot] = -1;
      }
    },
  });
  summary.pairsBefore = sideB.pairCount;
  summary.pairsAfter = sideA.pairCount;

  const items: TImpactItem[] = [];
  const keys = new Map<string, number>();
  const item = (
    kind: TImpactKind,
    named: string,
    fields: Omit<TImpactItem, 'key' | 'kind' | 'subject' | 'units' | 'decision'>,
  ) => {
    // Keys carry decisions: two trains, methods or results of one name stay apart (#2, #3…, as
    // decisions already stored know them); people read which of the name it is in words.
    const seen = (keys.get(`${kind}:${named}`) ?? 0) + 1;
    keys.set(`${kind}:${named}`, seen);
    items.push({
      key: `${kind}:${seen === 1 ? named : `${named} #${seen}`}`,
      kind,
      subject: seen === 1 ? named : `${named} (${ordinal(seen)} of that name)`,
      ...fields,
      units: unitNames,
      decision: null,
    });
  };

  after.products.forEach((product, p) => {
    const pb = toBefore[p] ?? -1;
    const then = limitsOf(sideB.lowest, pb);
    const now = limitsOf(sideA.lowest, p);
    const moves = movedPairs[p] ?? 0;
    if (moves > 0) {
      const change = hasLargest[p] ? (largest[p] ?? null) : null;
      item('limitsMoved', product.id, {
        summary: `${plural(moves, 'pair')} ${moves === 1 ? 'moves' : 'move'}${change === null ? '' : ` (largest change ${signed(change)})`}; lowest MACO ${sig(then?.maco ?? null)} → ${sig(now?.maco ?? null)} ${unitLabel(units.maco)}, lowest SAL ${sig(then?.sal ?? null)} → ${sig(now?.sal ?? null)} ${unitLabel(units.sal)}`,
        before: then,
        after: now,
        changePercent: change,
        pairs: moves,
        tightened: tighter[p] === 1,
      });
    }
    const switches = switched[p] ?? 0;
    if (switches > 0) {
      summary.criterionChanged++;
      item('criterionChanged', product.id, {
        summary: `The governing criterion changes on ${plural(switches, 'pair')}; on the lowest-MACO pair ${then?.criterion ?? 'none'} → ${now?.criterion ?? 'none'}`,
        before: then,
        after: now,
        changePercent:
          then && now ? percent(then.maco ?? Number.NaN, now.maco ?? Number.NaN) : null,
        pairs: switches,
        tightened: tighter[p] === 1,
      });
    }
    const news = added.pairs[p] ?? 0;
    if (news > 0) {
      const lowest = limitsOf(added, p);
      item('pairsAdded', product.id, {
        summary: `${plural(news, 'new pair')}${pb < 0 ? ' (new product)' : ''}; their lowest MACO ${sig(lowest?.maco ?? null)} ${unitLabel(units.maco)}, lowest SAL ${sig(lowest?.sal ?? null)} ${unitLabel(units.sal)}`,
        before: null,
        after: lowest,
        changePercent: null,
        pairs: news,
        tightened: addedTighter[p] === 1,
      });
    }
  });
  before.products.forEach((product, pb) => {
    const gone = removed.pairs[pb] ?? 0;
    if (gone === 0) return;
    item('pairsRemoved', product.id, {
      summary: `${plural(gone, 'pair')} no longer computed${(toAfter[pb] ?? -1) < 0 ? ' (product removed)' : ''}`,
      before: limitsOf(removed, pb),
      after: null,
      changePercent: null,
      pairs: gone,
      tightened: false,
    });
  });

  const worstCases =
    context.worstCases?.(
      { compiled: kept.compiled, summary: kept.summary },
      { compiled: compiledAfter, summary: afterSummary },
    ) ?? [];
  context.trains.forEach((train, t) => {
    // The worst case is the one the ranking and the cleaning assessment name (TrainWorstCase): a
    // rule of its own here (it was the lowest SAL) would report changes the screens do not show.
    const { before: nameB, after: nameA } = worstCases[t] ?? { before: null, after: null };
    if (nameB === nameA) return;
    summary.worstCasesChanged++;
    const atB = sideB.trainSlot(t, nameB);
    const atA = sideA.trainSlot(t, nameA);
    const salB = atB < 0 ? Number.NaN : (sideB.trainLowest.sal[atB] ?? Number.NaN);
    const salA = atA < 0 ? Number.NaN : (sideA.trainLowest.sal[atA] ?? Number.NaN);
    item('worstCaseChanged', train.name, {
      summary: `Worst case ${nameB ?? 'none'} → ${nameA ?? 'none'}; the worst case's lowest SAL on the train ${sig(shown(convertValue(salB, 'mg/sqcm', units.sal)))} → ${sig(shown(convertValue(salA, 'mg/sqcm', units.sal)))} ${unitLabel(units.sal)}`,
      before: limitsOf(sideB.trainLowest, atB),
      after: limitsOf(sideA.trainLowest, atA),
      changePercent: percent(salB, salA),
      pairs: atA < 0 ? 0 : (sideA.trainLowest.pairs[atA] ?? 0),
      tightened: salA < salB && moved(salB, salA),
    });
  });

  context.methods.forEach((method, i) => {
    const loqA = sideA.loq[i] ?? Number.NaN;
    const loqB = sideB.loq[i] ?? Number.NaN;
    const swab = method.sampleType === 'swab';
    const pick = (l: LowestLimits, p: number) =>
      p < 0 ? Number.NaN : ((swab ? l.swab[p] : l.rinse[p]) ?? Number.NaN);
    after.products.forEach((product, p) => {
      if (sideA.measures[i]?.[p] !== 1) return;
      const pb = toBefore[p] ?? -1;
      const now = pick(sideA.lowest, p);
      if (!(now < loqA)) return;
      const then = pick(sideB.lowest, pb);
      // Below before as well, with the same limit: not an effect of this change.
      if (then < loqB && !moved(then, now) && !moved(loqB, loqA)) return;
      summary.belowLoq++;
      const unit = unitLabel(swab ? units.swab : units.rinse);
      const inUnit = (x: number) =>
        shown(swab ? convertValue(x, 'mg/swab', units.swab) : rinseIn(x, units.rinse));
      item('belowLoq', `${product.id} · ${method.name}`, {
        summary: `Lowest ${method.sampleType} limit ${sig(inUnit(then))} → ${sig(inUnit(now))} ${unit}, below the LOQ of ${method.name} (${sig(inUnit(loqA))} ${unit})`,
        before: limitsOf(sideB.lowest, pb),
        after: limitsOf(sideA.lowest, p),
        changePercent: percent(then, now),
        pairs: sideA.pairsBelow[i]?.[p] ?? 0,
        tightened: now < then && moved(then, now),
      });
    });
  });

  const status = (value: number, limit: number) =>
    value > limit ? 2 : value > AT_RISK_SHARE * limit ? 1 : 0;
  context.results.forEach((result, r) => {
    const limitA = sideA.resultLimit[r] ?? Number.NaN;
    if (Number.isNaN(limitA)) return;
    const limitB = sideB.resultLimit[r] ?? Number.NaN;
    const now = status(sideA.resultValue[r] ?? Number.NaN, limitA);
    const then = Number.isNaN(limitB) ? -1 : status(sideB.resultValue[r] ?? Number.NaN, limitB);
    if (now === 0 || (now === then && !moved(limitB, limitA))) return;
    summary.resultsAtRisk++;
    const swab = result.sampleType === 'swab';
    const unit = unitLabel(swab ? units.swab : units.rinse);
    const inUnit = (x: number) =>
      shown(swab ? convertValue(x, 'mg/swab', units.swab) : rinseIn(x, units.rinse));
    const sample = (limit: number): Limits => ({
      maco: null,
      sal: null,
      swab: swab ? inUnit(limit) : null,
      rinse: swab ? null : inUnit(limit),
      criterion: null,
    });
    const value = sideA.resultValue[r] ?? Number.NaN;
    item('resultAtRisk', result.id, {
      summary: `${result.sampleType} result ${sig(inUnit(value))} ${unit} after ${result.previous} ${now === 2 ? 'fails' : 'is over half of'} the new limit ${sig(inUnit(limitA))} ${unit} (was ${sig(inUnit(limitB))} ${unit})`,
      before: Number.isNaN(limitB) ? null : sample(limitB),
      after: sample(limitA),
      changePercent: percent(limitB, limitA),
      pairs: sideA.resultPairs[r] ?? 0,
      tightened: limitA < limitB && moved(limitB, limitA),
    });
  });

  const rank = new Map(IMPACT_KINDS.map((kind, i) => [kind, i]));
  const order = new Map(items.map((it, i) => [it, i]));
  items.sort(
    (a, b) =>
      (rank.get(a.kind) ?? 0) - (rank.get(b.kind) ?? 0) ||
      (order.get(a) ?? 0) - (order.get(b) ?? 0),
  );

  const pairThen = newPairView(kept.compiled.equipmentCount);
  const pairs = top.sorted().map((slot) => listedPair(slot));
  summary.pairsListed = pairs.length;
  return { items, pairs, summary };

  function listedPair(slot: number): TImpactPair {
    const k = top.k[slot] ?? -1;
    const p = top.previous[slot] ?? 0;
    const n = top.next[slot] ?? 0;
    const gone = p < 0;
    // The before pair evaluated again (the walk keeps no before pair): before's product indices.
    const pb = gone ? -1 - p : (toBefore[p] ?? -1);
    const nb = gone ? -1 - n : (toBefore[n] ?? -1);
    const was = k >= 0 && evaluatePairAt(kept.compiled, pb, nb, pairThen);
    const then: Four | null = was
      ? [pairThen.maco, pairThen.sal, pairThen.swabLimit, pairThen.rinseLimit]
      : null;
    const now: Four | null = gone
      ? null
      : [
          top.maco[slot] ?? Number.NaN,
          top.sal[slot] ?? Number.NaN,
          top.swab[slot] ?? Number.NaN,
          top.rinse[slot] ?? Number.NaN,
        ];
    const names = gone ? before.products : after.products;
    const change = (i: number) =>
      then && now ? percent(then[i] ?? Number.NaN, now[i] ?? Number.NaN) : null;
    const criteria = {
      unit: units.maco,
      before: was ? criterionValues(kept.compiled, pb, nb) : null,
      after: gone ? null : criterionValues(compiledAfter, p, n),
    };
    return {
      previous: names[gone ? -1 - p : p]?.id ?? '',
      next: names[gone ? -1 - n : n]?.id ?? '',
      before: then ? display(then, pairThen.governing) : null,
      after: now ? display(now, top.governing[slot] ?? -1) : null,
      macoChange: change(0),
      salChange: change(1),
      swabChange: change(2),
      rinseChange: change(3),
      criteria,
    };
  }

  /** Every criterion of the pair previous `p` → next `n` of a side, in the MACO's unit. */
  function criterionValues(m: CompiledLimits, p: number, n: number): TCriterionValues {
    const values = new Float64Array(CRITERION_COUNT);
    pairCriteria(m, p, n, values);
    return criteriaByKey(values, (mg) => convertValue(mg, 'mg', units.maco));
  }
}
