import { isLower } from './compile.ts';
import type { CompiledLimits } from './compile.ts';
import { CALCULATED, itemRinseLimit, runMatrix } from './matrix.ts';
import type { PairView, SampleValue } from './matrix.ts';

/**
 * The lowest limits of the equipment-limits and production-limits reports, read off the matrix's
 * own pairs: every number here is one the matrix produced for a pair, never recomputed.
 */

/** The lowest value of one limit and the previous → next pair that gave it; NaN = none. */
export interface LowestLimit {
  value: number;
  pair: [string, string] | null;
}

export interface LowestLimits {
  maco: LowestLimit;
  sal: LowestLimit;
  swab: LowestLimit;
  rinse: LowestLimit;
}

export interface EquipmentLimits extends LowestLimits {
  id: string;
  pairCount: number;
}

export interface LimitsReport {
  /** Over every pair of the matrix. */
  overall: LowestLimits & { pairCount: number };
  /** Items in at least one pair, in input order. */
  equipment: EquipmentLimits[];
}

const KEYS = ['maco', 'sal', 'swab', 'rinse'] as const;

function emptyLowest(): LowestLimits {
  return {
    maco: { value: Number.NaN, pair: null },
    sal: { value: Number.NaN, pair: null },
    swab: { value: Number.NaN, pair: null },
    rinse: { value: Number.NaN, pair: null },
  };
}

function valueOf(view: PairView, key: (typeof KEYS)[number], rinse: number): number {
  switch (key) {
    case 'maco':
      return view.maco;
    case 'sal':
      return view.sal;
    case 'swab':
      return view.swabLimit;
    case 'rinse':
      return rinse;
  }
}

/**
 * Keeps a pair's value where it is lower; the first pair in matrix order wins a tie. `rinse` is
 * the pair's rinse limit, or for one item the rinse limit of that item rinsed on its own.
 */
function fold(
  into: LowestLimits,
  view: PairView,
  pair: () => [string, string],
  rinse: number,
): void {
  for (const key of KEYS) {
    const value = valueOf(view, key, rinse);
    if (Number.isNaN(value)) continue;
    const held = into[key];
    if (Number.isNaN(held.value) || isLower(value, held.value)) {
      into[key] = { value, pair: pair() };
    }
  }
}

export function limitsReport(m: CompiledLimits): LimitsReport {
  const { products, equipment } = m.input;
  const overall = { ...emptyLowest(), pairCount: 0 };
  const perItem = equipment.map((item) => ({ id: item.id, pairCount: 0, ...emptyLowest() }));
  const rinse: SampleValue = { value: Number.NaN, rule: CALCULATED };
  runMatrix(m, (view) => {
    let ids: [string, string] | undefined;
    const pair = () => (ids ??= [products[view.previous]?.id ?? '', products[view.next]?.id ?? '']);
    overall.pairCount++;
    fold(overall, view, pair, view.rinseLimit);
    for (let i = 0; i < view.sharedCount; i++) {
      const e = view.shared[i] ?? -1;
      const item = perItem[e];
      if (!item) continue;
      item.pairCount++;
      // An item's rinse limit is for that item rinsed on its own: its own area, its share.
      fold(item, view, pair, itemRinseLimit(m, view, e, rinse).value);
    }
  });
  return { overall, equipment: perItem.filter((item) => item.pairCount > 0) };
}

/** The distinct pairs that set some lowest limit, as `previous → next` keys. */
export function governingPairs(limits: readonly LowestLimits[]): [string, string][] {
  const seen = new Map<string, [string, string]>();
  for (const l of limits) {
    for (const key of KEYS) {
      const pair = l[key].pair;
      if (pair) seen.set(pairKey(pair), pair);
    }
  }
  return [...seen.values()];
}

export function pairKey([previous, next]: readonly [string, string]): string {
  return `${previous} → ${next}`;
}
