import { describe, expect, it } from 'vitest';
import { criteriaSentence } from '../assessments/criteria-sentence.ts';
import { contractDocument } from './contract-output.ts';
import { applyWhatIf, compareLimits } from './limits.what-if.ts';
import type { LimitsInput } from './model.ts';
import { addProductEdit, pdeEdit, twoProductFacility } from './two-product-facility.ts';

const input = () => twoProductFacility();

const macoOf = (i: LimitsInput, previous: string, next: string) =>
  contractDocument(i).pairs?.find((p) => p.previous === previous && p.next === next)?.maco?.value;

describe('applyWhatIf', () => {
  it('changes a copy, and matches the engine run on the changed input', () => {
    const before = input();
    const after = applyWhatIf(before, [
      { kind: 'minBatchSize', product: 'B', value: { value: 100, unit: 'kg' } },
    ]);
    expect(before.products[1]!.minBatchSize.value).toBe(200);
    expect(macoOf(after, 'A', 'B')).toBeCloseTo(macoOf(before, 'A', 'B')! / 2, 9);
  });

  it('sets an active’s PDE in every product that has it, and adds a product at the end', () => {
    const after = applyWhatIf(input(), [
      pdeEdit('a1', 2),
      addProductEdit('C', 'b1', 50, 100, ['E1']),
    ]);
    expect(after.products[0]!.actives[0]!.pde).toEqual({ value: 2, unit: 'ug' });
    expect(after.products.map((p) => p.id)).toEqual(['A', 'B', 'C']);
    expect(after.trains.C).toEqual(['E1']);
    expect(() => applyWhatIf(input(), [addProductEdit('D', 'nope', 1, 1, [])])).toThrow(
      "no active named 'nope'",
    );
  });
});

describe('compareLimits', () => {
  it('lists the pairs that move with before, after and % change, flagged lower', () => {
    const before = input();
    const after = applyWhatIf(before, [
      { kind: 'minBatchSize', product: 'B', value: { value: 100, unit: 'kg' } },
    ]);
    const result = compareLimits(before, after);
    expect(result.pairsBefore).toBe(2);
    expect(result.moved).toBe(1);
    expect(result.changes).toHaveLength(1);
    const [change] = result.changes;
    expect(change).toMatchObject({ previous: 'A', next: 'B', isLower: true, isNew: false });
    expect(change!.macoAfter! / change!.macoBefore!).toBeCloseTo(0.5, 12);
    expect(change!.macoChange).toBeCloseTo(-50, 9);
    expect(change!.salChange).toBeCloseTo(-50, 9);
  });

  it('flags pairs below a surface threshold, new ones apart, and reports added pairs', () => {
    const before = input();
    const after = applyWhatIf(before, [addProductEdit('C', 'a1', 1, 1000, ['E1'])]);
    const none = compareLimits(before, before, { salThreshold: 0 });
    expect(none.changes).toEqual([]);
    const result = compareLimits(before, after, { salThreshold: 1e9 });
    expect(result.added).toBe(2);
    expect(result.below).toBe(result.pairsAfter);
    expect(result.changes.filter((c) => c.isNew).map((c) => `${c.previous}→${c.next}`)).toEqual(
      expect.arrayContaining(['A→C', 'C→A']),
    );
    expect(result.changes.find((c) => c.previous === 'A' && c.next === 'B')).toMatchObject({
      isBelow: true,
      isNewlyBelow: false,
    });
  });
  it('says why nothing moves: the pairs whose criterion that does not govern moved', () => {
    // B's PDE 5 → 2 mg: health-based B→A 1,250,000 → 500,000 mg, under the general limit.
    const before = input();
    const result = compareLimits(before, applyWhatIf(before, [pdeEdit('b1', 2000)]));
    expect(result.moved).toBe(0);
    expect(result.changes).toEqual([]);
    expect(result.criteriaMoved).toBe(1);
    expect(result.staying.map((p) => `${p.previous}→${p.next}`)).toEqual(['B→A']);
    // The wording of the change assessment's impact (server impact-exports test).
    expect(criteriaSentence(result.staying[0]!)).toBe(
      'Health-based 1,250,000 mg → 500,000 mg; general limit 1,000 mg still governs',
    );
    // A pair whose limit moves is not among them, nor is any pair when nothing changed.
    const halved = compareLimits(
      before,
      applyWhatIf(before, [pdeEdit('b1', 2000), pdeEdit('a1', 0.5)]),
    );
    expect(halved.moved).toBe(1);
    expect(halved.staying.map((p) => `${p.previous}→${p.next}`)).toEqual(['B→A']);
    expect(compareLimits(before, before)).toMatchObject({ criteriaMoved: 0, staying: [] });
    expect(
      compareLimits(before, applyWhatIf(before, [pdeEdit('b1', 2000)]), { maxRows: 0 }),
    ).toMatchObject({ criteriaMoved: 1, staying: [] });
  });
});
