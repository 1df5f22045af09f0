import { compileLimits, type CompiledLimits } from '#core/limits/compile.ts';
import { contractPair } from '#core/limits/contract-output.ts';
import {
  SAMPLE_RULE_NAMES,
  evaluatePairAt,
  newPairView,
  runMatrix,
  type PairView,
} from '#core/limits/matrix.ts';
import type { LimitsInput } from '#core/limits/model.ts';
import { nameRanks, pairFlags } from '#core/limits/pair-flags.ts';
import type { TMacPair, TMacPairsPage, TMacPairsQuery } from '#core/schemas/mac-matrix.schemas.ts';

/** Int32 list that grows by doubling: a million matches cost 4 MB, not a million objects. */
export class IntList {
  items = new Int32Array(1024);
  length = 0;
  push(value: number): void {
    if (this.length === this.items.length) {
      const bigger = new Int32Array(this.items.length * 2);
      bigger.set(this.items);
      this.items = bigger;
    }
    this.items[this.length++] = value;
  }
}

/** Float64 list that grows by doubling. */
export class FloatList {
  items = new Float64Array(1024);
  length = 0;
  push(value: number): void {
    if (this.length === this.items.length) {
      const bigger = new Float64Array(this.items.length * 2);
      bigger.set(this.items);
      this.items = bigger;
    }
    this.items[this.length++] = value;
  }
}

/** NaN ("no value") sorts last in both directions. */
function byValue(keys: Float64Array, descending: boolean) {
  return (a: number, b: number) => {
    const x = keys[a] ?? Number.NaN;
    const y = keys[b] ?? Number.NaN;
    if (Number.isNaN(x) || Number.isNaN(y)) {
      return Number.isNaN(x) === Number.isNaN(y) ? a - b : Number.isNaN(x) ? 1 : -1;
    }
    return (descending ? y - x : x - y) || a - b;
  };
}

/** The pairs of the matrix that match a filter, in the order asked for. */
interface PairMatches {
  prevs: Int32Array;
  nexts: Int32Array;
  order: Uint32Array;
}

/** What a page needs of the facility's matrix; a cached state (mac-matrix-cache.ts) is one. */
export interface PairsSource {
  input: LimitsInput;
  compiled(): CompiledLimits;
  derived<T>(key: string, compute: () => T): T;
}

/** A source with nothing kept between calls. */
export function freshPairsSource(input: LimitsInput): PairsSource {
  let compiled: CompiledLimits | undefined;
  return {
    input,
    compiled: () => (compiled ??= compileLimits(input)),
    derived: (_key, compute) => compute(),
  };
}

/**
 * One page of the MAC matrix with its filters. The matrix runs once per filter and sort; a
 * matching pair keeps only its two product indices (and a sort key), and only the pairs of the
 * page are evaluated again and written out, so a 1,000-product facility answers without a
 * million objects in memory. With a cached source the matches are kept with the matrix's state,
 * and a further page costs only its own pairs.
 */
export function pagePairs(source: PairsSource | LimitsInput, query: TMacPairsQuery): TMacPairsPage {
  const from = 'derived' in source ? source : freshPairsSource(source);
  const empty = { data: [], total: 0, pageNumber: query.pageNumber, pageLimit: query.pageLimit };
  const filter = [query.previous, query.next, query.equipment, query.failingOnly, query.sort];
  const matches = from.derived(`pairs:${JSON.stringify(filter)}`, () => matchPairs(from, query));
  if (!matches) return empty;
  const m = from.compiled();
  const { prevs, nexts, order } = matches;
  const start = (query.pageNumber - 1) * query.pageLimit;
  const view = newPairView(m.equipmentCount);
  const data: TMacPair[] = [];
  for (const row of order.subarray(start, start + query.pageLimit)) {
    evaluatePairAt(m, prevs[row] ?? 0, nexts[row] ?? 0, view);
    data.push({ ...contractPair(m, view), ...sampleBases(m, view), flags: pairFlags(view) });
  }
  return { ...empty, data, total: order.length };
}

/** Which rule set the pair's swab and rinse limits, beside them (not in the limits contract). */
function sampleBases(m: CompiledLimits, view: PairView) {
  return {
    ...(m.input.sampling.swabArea ? { swabLimitBasis: SAMPLE_RULE_NAMES[view.swabRule] } : {}),
    ...(m.input.sampling.rinseVolume ? { rinseLimitBasis: SAMPLE_RULE_NAMES[view.rinseRule] } : {}),
  };
}

function matchPairs(source: PairsSource, query: TMacPairsQuery): PairMatches | null {
  const { input } = source;
  const indexOf = (names: readonly { id: string }[], name: string | undefined) =>
    name === undefined ? -2 : names.findIndex((x) => x.id === name);
  const previous = indexOf(input.products, query.previous);
  const next = indexOf(input.products, query.next);
  const equipment = indexOf(input.equipment, query.equipment);
  if (previous === -1 || next === -1 || equipment === -1) return null;
  const m = source.compiled();

  const failingOnly = query.failingOnly === 'true';
  const keeps = (view: PairView) =>
    (equipment < 0 || view.shared.subarray(0, view.sharedCount).includes(equipment)) &&
    (!failingOnly || pairFlags(view).length > 0);
  // One pair asked for by name (a cell of the grid): evaluated alone, not found in the matrix.
  if (previous >= 0 && next >= 0) {
    const view = newPairView(m.equipmentCount);
    const found = evaluatePairAt(m, previous, next, view) && keeps(view);
    return {
      prevs: Int32Array.of(previous),
      nexts: Int32Array.of(next),
      order: found ? Uint32Array.of(0) : new Uint32Array(0),
    };
  }
  const sort = query.sort;
  const ranks = sort === 'previous' || sort === 'next' ? nameRanks(m) : null;
  const count = m.productCount;
  const prevs = new IntList();
  const nexts = new IntList();
  const keys = new FloatList();
  runMatrix(m, (view) => {
    if (previous >= 0 && view.previous !== previous) return;
    if (next >= 0 && view.next !== next) return;
    if (!keeps(view)) return;
    prevs.push(view.previous);
    nexts.push(view.next);
    if (!sort) return;
    const p = ranks?.[view.previous] ?? 0;
    const n = ranks?.[view.next] ?? 0;
    keys.push(
      sort === 'previous'
        ? p * count + n
        : sort === 'next'
          ? n * count + p
          : sort.endsWith('maco')
            ? view.maco
            : view.sal,
    );
  });

  const total = prevs.length;
  const order = Uint32Array.from({ length: total }, (_v, i) => i);
  if (sort) order.sort(byValue(keys.items, sort.startsWith('-')));
  return {
    prevs: prevs.items.slice(0, total),
    nexts: nexts.items.slice(0, total),
    order,
  };
}
