import { compileLimits } from '../../../core/limits/compile.ts';
import { contractPair } from '../../../core/limits/contract-output.ts';
import { evaluatePairAt, newPairView, runMatrix } from '../../../core/limits/matrix.ts';
import type { LimitsInput } from '../../../core/limits/model.ts';
import { nameRanks, pairFlags } from '../../../core/limits/pair-flags.ts';
import type {
  TMacPair,
  TMacPairsPage,
  TMacPairsQuery,
} from '../../../core/schemas/mac-matrix.schemas.ts';

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

class FloatList {
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

/**
 * One page of the MAC matrix with its filters. The matrix runs once; a matching pair keeps only
 * its two product indices (and a sort key), and only the pairs of the page are evaluated again
 * and written out, so a 1,000-product facility answers without a million objects in memory.
 */
export function pagePairs(input: LimitsInput, query: TMacPairsQuery): TMacPairsPage {
  const m = compileLimits(input);
  const indexOf = (names: readonly { id: string }[], name: string | undefined) =>
    name === undefined ? -2 : names.findIndex((x) => x.id === name);
  const previous = indexOf(input.products, query.previous);
  const next = indexOf(input.products, query.next);
  const equipment = indexOf(input.equipment, query.equipment);
  const empty = { data: [], total: 0, pageNumber: query.pageNumber, pageLimit: query.pageLimit };
  if (previous === -1 || next === -1 || equipment === -1) return empty;

  const failingOnly = query.failingOnly === 'true';
  const sort = query.sort;
  const ranks = sort === 'previous' || sort === 'next' ? nameRanks(m) : null;
  const count = m.productCount;
  const prevs = new IntList();
  const nexts = new IntList();
  const keys = new FloatList();
  runMatrix(m, (view) => {
    if (previous >= 0 && view.previous !== previous) return;
    if (next >= 0 && view.next !== next) return;
    if (equipment >= 0 && !view.shared.subarray(0, view.sharedCount).includes(equipment)) return;
    if (failingOnly && pairFlags(view).length === 0) return;
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
  const start = (query.pageNumber - 1) * query.pageLimit;
  const view = newPairView(m.equipmentCount);
  const data: TMacPair[] = [];
  for (const row of order.subarray(start, start + query.pageLimit)) {
    evaluatePairAt(m, prevs.items[row] ?? 0, nexts.items[row] ?? 0, view);
    data.push({ ...contractPair(m, view), flags: pairFlags(view) });
  }
  return { ...empty, data, total };
}
