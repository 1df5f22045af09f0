import { describe, expect, it } from 'vitest';
import { TopPairs } from './top-pairs.ts';

describe('TopPairs', () => {
  it('keeps the highest scores of a stream, the earlier one on a tie, highest first', () => {
    let seed = 7;
    const random = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
    // Scores with many ties (rounded) and a few infinities, as new and removed pairs are.
    const scores = Array.from({ length: 5_000 }, (_, i) =>
      i % 997 === 0 ? Number.POSITIVE_INFINITY : Math.round(random() * 300),
    );
    for (const capacity of [0, 1, 7, 100, 5_000, 6_000]) {
      const top = new TopPairs(capacity);
      scores.forEach((score, i) => {
        top.offered[0] = score;
        const slot = top.put(i, i + 1, i);
        if (slot >= 0) top.maco[slot] = score;
      });
      const kept = top.sorted().map((slot) => top.previous[slot]);
      const expected = scores
        .map((score, i) => ({ score, i }))
        .sort((a, b) => (a.score === b.score ? a.i - b.i : b.score - a.score))
        .slice(0, capacity)
        .map((x) => x.i);
      expect(kept).toEqual(expected);
      for (const slot of top.sorted()) {
        expect(top.maco[slot]).toBe(scores[top.previous[slot]!]);
        expect(top.next[slot]).toBe(top.previous[slot]! + 1);
      }
    }
  });
});
