import { describe, expect, it } from 'vitest';
import { toBase } from '../units/quantity.ts';
import { compileLimits, trainOf } from './compile.ts';
import type { CompiledLimits } from './compile.ts';
import {
  evaluatePairAt,
  matrixPairs,
  matrixRows,
  newPairView,
  newSummary,
  runMatrix,
} from './matrix.ts';
import type { MatrixSummary, PairView } from './matrix.ts';
import type { ActiveSpec, LimitsInput, ProductSpec } from './model.ts';
import { rng } from '#bench/limits-input.ts';
import { defaultPolicy } from './policy.ts';

/**
 * The matrix finds its pairs through the equipment → products index (issue 16). On generated
 * facilities it must give exactly the pairs of the straightforward walk it replaced (every ordered
 * pair, the two trains compared item by item), in the same order, with the same shared items and
 * area to the last bit, and the same numbers as the pair evaluated on its own (`evaluatePairAt`).
 */

/**
 * A random facility: up to 80 products (more than one 32-bit word of next products) on up to 40
 * items, trains of any size including none, items made by no product, products sharing no item,
 * actives shared by several products (same id, same data), products without actives, train
 * entries naming items no longer in the list (archived) and trains of products no longer in it,
 * values that tie, and the policy switches that change which area a pair uses.
 */
function facility(seed: number): LimitsInput {
  const random = rng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)] as T;
  const equipment = Array.from({ length: int(0, 40) }, (_, e) => ({
    id: `E${e}`,
    surfaceArea: pick([
      { value: int(1, 5) * 10_000, unit: 'sqcm' as const },
      { value: 1 + random() * 20, unit: 'sqm' as const },
      { value: 100 + random() * 5_000, unit: 'sqin' as const },
    ]),
  }));
  const pool: ActiveSpec[] = Array.from({ length: int(1, 8) }, (_, a) => ({
    id: `A${a}`,
    pde: pick([undefined, { value: int(1, 3), unit: 'mg' as const }]),
    therapeuticDose: pick([undefined, { value: int(1, 3) * 1_000, unit: 'ug' as const }]),
    ld50: pick([undefined, { value: 100 + random() * 900, unit: 'mg/kg' as const }]),
  }));
  const products: ProductSpec[] = Array.from({ length: int(0, 80) }, (_, p) => ({
    id: `P${p}`,
    minBatchSize: pick([
      { value: int(1, 4) * 50, unit: 'kg' as const },
      { value: 100 + random() * 1_000, unit: 'L' as const },
    ]),
    maxDailyDose: { value: int(1, 4) * 100, unit: 'mg' as const },
    actives: [...new Set(Array.from({ length: int(0, 3) }, () => pick(pool)))],
  }));
  // a volume batch needs a volume dose
  for (const product of products) {
    if (product.minBatchSize.unit === 'L') product.maxDailyDose = { value: 5, unit: 'ml' };
  }
  const ids = equipment.map((item) => item.id);
  const trains: Record<string, string[]> = {};
  const sparse = random() < 0.5;
  products.forEach((product, p) => {
    const shape = random();
    if (shape < 0.1) return; // no train at all
    if (shape < 0.2) {
      trains[product.id] = []; // an empty train
    } else if (shape < 0.3) {
      trains[product.id] = [`ONLY-${p}`, `ARCHIVED-${p}`]; // shares nothing with anyone
      equipment.push({ id: `ONLY-${p}`, surfaceArea: { value: 5, unit: 'sqm' } });
    } else {
      const size = ids.length === 0 ? 0 : int(1, sparse ? 3 : Math.min(ids.length, 15));
      trains[product.id] = Array.from({ length: size }, () => pick(ids));
    }
    if (random() < 0.2) trains[product.id]?.push(`ARCHIVED-${int(0, 5)}`);
  });
  trains['ARCHIVED-PRODUCT'] = ids.slice(0, 3);
  const policy = defaultPolicy();
  policy.useLd50 = random() < 0.5;
  policy.useFirstAvailableCriteria = random() < 0.2;
  policy.areaBasis = random() < 0.3 ? 'previousTrain' : 'shared';
  policy.useResidueLimit = random() < 0.3;
  policy.residueLimit = { value: 0.0001, unit: 'mg/sqcm' };
  return {
    policy,
    products,
    equipment,
    trains,
    sampling: { swabArea: { value: 25, unit: 'sqcm' }, rinseVolume: { value: 10, unit: 'L' } },
  };
}

interface WalkedPair {
  previous: string;
  next: string;
  shared: string[];
  area: number;
}

/** Summed area of the items in input order. */
function areaOf(items: LimitsInput['equipment']): number {
  let area = 0;
  for (const item of items) area += toBase(item.surfaceArea, 'area');
  return area;
}

/**
 * The straightforward walk, from the input itself: every ordered pair, items in input order, the
 * area of the shared items (or of the previous product's whole train, with areaBasis previousTrain).
 */
function straightforwardPairs(input: LimitsInput): WalkedPair[] {
  const pairs: WalkedPair[] = [];
  for (const previous of input.products) {
    const previousTrain = new Set(trainOf(input.trains, previous.id));
    for (const next of input.products) {
      if (next === previous) continue;
      const nextTrain = new Set(trainOf(input.trains, next.id));
      const shared = input.equipment.filter(
        (item) => previousTrain.has(item.id) && nextTrain.has(item.id),
      );
      if (shared.length === 0) continue;
      const area =
        input.policy.areaBasis === 'previousTrain'
          ? areaOf(input.equipment.filter((item) => previousTrain.has(item.id)))
          : areaOf(shared);
      pairs.push({
        previous: previous.id,
        next: next.id,
        shared: shared.map((item) => item.id),
        area,
      });
    }
  }
  return pairs;
}

/** Every field of a pair view, arrays copied, so that the reused view can be kept. */
function snapshot(m: CompiledLimits, view: PairView) {
  return {
    previous: m.input.products[view.previous]?.id,
    next: m.input.products[view.next]?.id,
    shared: Array.from(view.shared.subarray(0, view.sharedCount), (e) => m.input.equipment[e]?.id),
    area: view.area,
    criteria: Array.from(view.criteria),
    governing: view.governing,
    governingActive: view.governingActive,
    maco: view.maco,
    sal: view.sal,
    salCapped: view.salCapped,
    swabLimit: view.swabLimit,
    rinseLimit: view.rinseLimit,
    swabRule: view.swabRule,
    rinseRule: view.rinseRule,
  };
}

function summaryArrays(s: MatrixSummary) {
  return Object.fromEntries(
    Object.entries(s).map(([key, value]) => [
      key,
      typeof value === 'number' ? value : Array.from(value as ArrayLike<number>),
    ]),
  );
}

const SEEDS = Array.from({ length: 150 }, (_, i) => i + 1);

// 150 random facilities each: about a second on a quiet core, many more beside the other projects.
describe('the matrix found through the equipment → products index', { timeout: 60_000 }, () => {
  it('gives the pairs of the straightforward walk, in its order, with the same shared items and area', () => {
    let pairsSeen = 0;
    for (const seed of SEEDS) {
      const input = facility(seed);
      const m = compileLimits(input);
      const found: WalkedPair[] = [];
      runMatrix(m, (view) => {
        const { previous, next, shared, area } = snapshot(m, view);
        found.push({
          previous: previous ?? '',
          next: next ?? '',
          shared: shared as string[],
          area,
        });
      });
      expect(found, `seed ${seed}`).toEqual(straightforwardPairs(input));
      pairsSeen += found.length;
    }
    expect(pairsSeen).toBeGreaterThan(5_000);
  });

  it('gives every pair the numbers of the pair evaluated on its own, to the last bit', () => {
    for (const seed of SEEDS) {
      const m = compileLimits(facility(seed));
      const alone = newPairView(m.equipmentCount);
      const inMatrix: ReturnType<typeof snapshot>[] = [];
      const onTheirOwn: ReturnType<typeof snapshot>[] = [];
      runMatrix(m, (view) => {
        inMatrix.push(snapshot(m, view));
        if (evaluatePairAt(m, view.previous, view.next, alone)) onTheirOwn.push(snapshot(m, alone));
      });
      // toEqual takes NaN as equal to NaN and tells 0 from -0
      expect(inMatrix, `seed ${seed}`).toEqual(onTheirOwn);
    }
  });

  it('finds no pair the straightforward walk would not (each pair it skips shares nothing)', () => {
    for (const seed of SEEDS) {
      const m = compileLimits(facility(seed));
      const inMatrix: number[] = [];
      runMatrix(m, (view) => inMatrix.push(view.previous * m.productCount + view.next));
      const alone = newPairView(m.equipmentCount);
      const onTheirOwn: number[] = [];
      for (let p = 0; p < m.productCount; p++) {
        for (let n = 0; n < m.productCount; n++) {
          if (evaluatePairAt(m, p, n, alone)) onTheirOwn.push(p * m.productCount + n);
        }
      }
      expect(inMatrix, `seed ${seed}`).toEqual(onTheirOwn);
    }
  });

  it('streams the same pairs and summary from matrixPairs as from runMatrix', () => {
    for (const seed of SEEDS.slice(0, 100)) {
      const m = compileLimits(facility(seed));
      const looped: ReturnType<typeof snapshot>[] = [];
      const summary = runMatrix(m, (view) => looped.push(snapshot(m, view)));
      const streamed = newSummary(m);
      const pairs = Array.from(matrixPairs(m, streamed), (view) => snapshot(m, view));
      expect(pairs, `seed ${seed}`).toEqual(looped);
      expect(summaryArrays(streamed)).toEqual(summaryArrays(summary));
    }
  });

  it('says where each previous product’s pairs start, as runMatrix gives them', () => {
    for (const seed of SEEDS) {
      const m = compileLimits(facility(seed));
      const counted = new Int32Array(m.productCount + 1);
      runMatrix(m, (view) => {
        counted[view.previous + 1] = (counted[view.previous + 1] ?? 0) + 1;
      });
      for (let p = 0; p < m.productCount; p++) {
        counted[p + 1] = (counted[p + 1] ?? 0) + (counted[p] ?? 0);
      }
      expect(Array.from(matrixRows(m)), `seed ${seed}`).toEqual(Array.from(counted));
    }
  });
});
