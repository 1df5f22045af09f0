import { describe, expect, it } from 'vitest';
import { changedFields, deepEqual, rebase } from './document-changes.ts';

const loaded = {
  useARL: true,
  arl: { value: 10, unit: 'ppm' },
  globalRecoveryPercentage: 100,
  safetyFactor: 1000,
  checklist: [{ item: 'a', isMandatory: true }],
};

describe('deepEqual', () => {
  it('compares nested objects and arrays by value', () => {
    expect(deepEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(deepEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] })).toBe(false);
    expect(deepEqual([1], { 0: 1 })).toBe(false);
    expect(deepEqual(null, {})).toBe(false);
  });
});

describe('changedFields', () => {
  it('keeps only the top-level fields that differ, nested ones whole', () => {
    expect(
      changedFields(loaded, { ...loaded, useARL: false, arl: { value: 5, unit: 'ppm' } }),
    ).toEqual({ useARL: false, arl: { value: 5, unit: 'ppm' } });
  });

  it('sends nothing for an untouched form', () => {
    expect(changedFields(loaded, structuredClone(loaded))).toEqual({});
  });

  it('never sends the fields the server fixes, nor fields the document lacks', () => {
    const edited = { ...loaded, safetyFactor: 10, extra: 1 } as Partial<typeof loaded>;
    expect(changedFields(loaded, edited, ['safetyFactor'])).toEqual({});
  });

  it('sees a changed list item', () => {
    const edited = { ...loaded, checklist: [{ item: 'a', isMandatory: false }] };
    expect(changedFields(loaded, edited)).toEqual({ checklist: edited.checklist });
  });
});

describe('rebase', () => {
  it("lays the user's changes over the current document", () => {
    const current = { ...loaded, globalRecoveryPercentage: 90, useARL: true };
    expect(rebase(loaded, current, { ...loaded, useARL: false })).toEqual({
      ...current,
      useARL: false,
    });
  });
});
