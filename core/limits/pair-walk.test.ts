import { describe, expect, it } from 'vitest';
import { rng, syntheticLimitsInput } from '#bench/limits-input.ts';
import { compileLimits } from './compile.ts';
import { parseLimitsInput } from './contract-input.ts';
import { evaluatePairAt, newPairView } from './matrix.ts';
import type { LimitsInput } from './model.ts';
import { walkPairs } from './pair-walk.ts';

/**
 * The before side is kept sparse (only the pairs that exist, in the matrix's order) and found
 * row by row while the after matrix streams past. Products reordered, removed and added must
 * still meet their own before pair, by id, and every before pair must be met or removed once.
 */

function facility(seed: number): LimitsInput {
  const parsed = parseLimitsInput(syntheticLimitsInput(60, 80, seed));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors.slice(0, 3)));
  return parsed.input;
}

/** The same facility with its products shuffled, some gone, one train changed and one new product. */
function changed(input: LimitsInput, seed: number): LimitsInput {
  const random = rng(seed);
  const kept = input.products.filter(() => random() > 0.15);
  for (let i = kept.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [kept[i], kept[j]] = [kept[j]!, kept[i]!];
  }
  const first = kept[0]!;
  const added = { ...first, id: 'PRD-NEW' };
  kept.splice(Math.floor(kept.length / 2), 0, added);
  return {
    ...input,
    products: kept,
    trains: {
      ...input.trains,
      [first.id]: (input.trains[first.id] ?? []).slice(1),
      [added.id]: ['EQ-1', 'EQ-2', 'EQ-3'],
    },
  };
}

describe('walkPairs', () => {
  it('gives each after pair its before pair by product id, and every other before pair as removed', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const before = facility(seed);
      const after = changed(before, seed);
      const mb = compileLimits(before);
      const alone = newPairView(mb.equipmentCount);
      const placeBefore = new Map(before.products.map((p, i) => [p.id, i]));
      const met: number[] = [];
      const removed: { k: number; previous: number; next: number }[] = [];
      let added = 0;
      const { before: b } = walkPairs(before, after, {
        onPair(view, then) {
          const p = placeBefore.get(after.products[view.previous]!.id) ?? -1;
          const n = placeBefore.get(after.products[view.next]!.id) ?? -1;
          const existed = p >= 0 && n >= 0 && evaluatePairAt(mb, p, n, alone);
          if (!existed) {
            expect(then).toBe(null);
            added++;
            return;
          }
          expect([then?.previous, then?.next]).toEqual([p, n]);
          expect([then?.maco, then?.sal, then?.swab, then?.rinse, then?.governing]).toEqual([
            alone.maco,
            alone.sal,
            alone.swabLimit,
            alone.rinseLimit,
            alone.governing,
          ]);
          met.push(then!.k);
        },
        onRemoved(then) {
          removed.push({ k: then.k, previous: then.previous, next: then.next });
        },
      });
      expect(added).toBeGreaterThan(0);
      expect(removed.length).toBeGreaterThan(0);
      expect([...met, ...removed.map((r) => r.k)].sort((x, y) => x - y)).toEqual(
        Array.from({ length: b.pairCount }, (_, k) => k),
      );
      for (const r of removed) {
        expect(r.k).toBeGreaterThanOrEqual(b.rowStart[r.previous]!);
        expect(r.k).toBeLessThan(b.rowStart[r.previous + 1]!);
        const p = before.products[r.previous]!.id;
        const n = before.products[r.next]!.id;
        const gone =
          !after.products.some((x) => x.id === p) || !after.products.some((x) => x.id === n);
        const trainChanged = p === after.products[0]!.id || n === after.products[0]!.id;
        expect(gone || trainChanged, `${p} → ${n}`).toBe(true);
      }
    }
  });
});
