import { describe, expect, it } from 'vitest';
import {
  decisionsFor,
  limitLines,
  pairsListedNote,
  submitBlocker,
  summaryCounts,
} from './impact-format.ts';

const units = { maco: 'mg', sal: 'mg/sqcm', swab: 'ug/swab', rinse: 'ppm' };
const limits = (maco: number | null, criterion: string | null = 'HBEL') => ({
  maco,
  sal: null,
  swab: null,
  rinse: null,
  criterion,
});

describe('limitLines', () => {
  it('shows each limit either side has, before → after, with its unit', () => {
    expect(limitLines({ before: limits(12), after: limits(9.6), units })).toEqual([
      'MACO 12 mg → 9.6 mg',
      'Criterion HBEL',
    ]);
  });
  it('shows a missing side of a new pair as a dash, and a criterion change', () => {
    expect(limitLines({ before: null, after: limits(5, 'Dose'), units })).toEqual([
      'MACO – → 5 mg',
      'Criterion – → Dose',
    ]);
    expect(limitLines({ before: limits(5, 'Dose'), after: limits(5, 'HBEL'), units })).toEqual([
      'MACO 5 mg',
      'Criterion Dose → HBEL',
    ]);
    expect(limitLines({ before: limits(5, 'dose'), after: limits(4, 'health'), units })).toEqual([
      'MACO 5 mg → 4 mg',
      'Criterion dose-based → health-based',
    ]);
  });
});

const summary = {
  pairsBefore: 100,
  pairsAfter: 101,
  pairsMoved: 20_000,
  pairsTightened: 5,
  pairsAdded: 1,
  pairsRemoved: 0,
  criterionChanged: 0,
  worstCasesChanged: 0,
  belowLoq: 2,
  resultsAtRisk: 0,
  pairsListed: 10_000,
};

describe('the evaluation summary', () => {
  it('lists every count, tightened and below LOQ among them', () => {
    const counts = summaryCounts(summary);
    expect(counts).toHaveLength(11);
    expect(counts).toContainEqual({ label: 'Limit kept, criterion moved', value: 0 });
    expect(summaryCounts({ ...summary, criteriaMoved: 3 })).toContainEqual({
      label: 'Limit kept, criterion moved',
      value: 3,
    });
    expect(counts).toContainEqual({ label: 'Pairs tightened', value: 5 });
    expect(counts).toContainEqual({ label: 'Below LOQ', value: 2 });
  });
  it('says when the pair list keeps only the largest changes', () => {
    expect(pairsListedNote(summary)).toBe('The 10,000 largest of 20,001 pair changes are listed.');
    expect(pairsListedNote({ ...summary, pairsMoved: 3, pairsListed: 4 })).toBeNull();
  });
});

describe('decisionsFor', () => {
  it('gives each chosen item, once, the same decision and trimmed justification', () => {
    expect(decisionsFor(['a', 'b', 'a'], 'verification', ' swab study covers it ')).toEqual([
      { key: 'a', decision: 'verification', justification: 'swab study covers it' },
      { key: 'b', decision: 'verification', justification: 'swab study covers it' },
    ]);
  });
});

describe('submitBlocker', () => {
  it('asks for an evaluation, a current one, then a decision on every item', () => {
    expect(submitBlocker(null)).toBe('Evaluate the change before submitting it.');
    expect(submitBlocker({ current: false, undecided: 0 })).toMatch(/evaluate again/);
    expect(submitBlocker({ current: true, undecided: 1 })).toBe('1 impact item has no decision.');
    expect(submitBlocker({ current: true, undecided: 3 })).toBe('3 impact items have no decision.');
    expect(submitBlocker({ current: true, undecided: 0 })).toBeNull();
  });
});
