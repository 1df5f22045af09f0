import { describe, expect, it } from 'vitest';
import type { TCriterionValues, TImpactPair } from '../schemas/change-assessments.schemas.ts';
import { criteriaSentence } from './criteria-sentence.ts';
import { criterionOnlyImpact } from './two-product-impact.ts';

const none: TCriterionValues = { health: null, dose: null, ld50: null, arl: null, product: null };
const side = (criterion: string | null) => ({
  maco: null,
  sal: null,
  swab: null,
  rinse: null,
  criterion,
});

/** A pair as the evaluation lists it, with only what the sentence reads. */
function pair(
  before: Partial<TCriterionValues> | null,
  after: Partial<TCriterionValues> | null,
  governing: [string | null, string | null],
  unit = 'mg',
): Pick<TImpactPair, 'before' | 'after' | 'criteria'> {
  return {
    before: before ? side(governing[0]) : null,
    after: after ? side(governing[1]) : null,
    criteria: {
      unit,
      before: before ? { ...none, ...before } : null,
      after: after ? { ...none, ...after } : null,
    },
  };
}

describe('criteriaSentence', () => {
  it('names the criterion that moved and the one that still governs, with its value', () => {
    const p = pair({ health: 223, dose: 50 }, { health: 112, dose: 50 }, ['dose', 'dose']);
    expect(criteriaSentence(p)).toBe(
      'Health-based 223 mg → 112 mg; dose-based 50 mg still governs',
    );
  });

  it('does not repeat the value of a governing criterion that moved itself', () => {
    const p = pair({ health: 20, dose: 50 }, { health: 10, dose: 50 }, ['health', 'health']);
    expect(criteriaSentence(p)).toBe('Health-based 20 mg → 10 mg; health-based still governs');
  });

  it('says when the governing criterion changes', () => {
    const p = pair({ health: 223, dose: 50 }, { health: 12.5, dose: 50 }, ['dose', 'health']);
    expect(criteriaSentence(p)).toBe(
      'Health-based 223 mg → 12.5 mg; health-based now governs instead of dose-based',
    );
    const q = pair({ health: 20, dose: 50 }, { health: 200, dose: 50 }, ['health', 'dose']);
    expect(criteriaSentence(q)).toBe(
      'Health-based 20 mg → 200 mg; dose-based 50 mg now governs instead of health-based',
    );
  });

  it('says when a criterion appears or disappears', () => {
    const appears = pair({ arl: 1000 }, { arl: 1000, ld50: 30 }, ['arl', 'ld50']);
    expect(criteriaSentence(appears)).toBe(
      'LD50-based now applies at 30 mg; LD50-based now governs instead of general limit',
    );
    const goes = pair({ arl: 1000, ld50: 30 }, { arl: 1000 }, ['ld50', 'arl']);
    expect(criteriaSentence(goes)).toBe(
      'LD50-based no longer applies (was 30 mg); general limit 1,000 mg now governs instead of LD50-based',
    );
    const last = pair({ dose: 4 }, { dose: null }, ['dose', null]);
    expect(criteriaSentence(last)).toBe(
      'Dose-based no longer applies (was 4 mg); no criterion governs any more (dose-based did)',
    );
  });

  it('writes the values with the facility’s significant digits and the unit as people write it', () => {
    const p = pair(
      { health: 0.000123456, arl: 0.0000201 },
      { health: 0.0000654321, arl: 0.0000201 },
      ['arl', 'arl'],
      'ug',
    );
    expect(criteriaSentence(p, 3)).toBe(
      'Health-based 0.000123 µg → 0.0000654 µg; general limit 0.0000201 µg still governs',
    );
  });

  it('says nothing moved when no criterion did, and nothing for a pair without criteria', () => {
    const p = pair({ dose: 50 }, { dose: 50 }, ['dose', 'dose']);
    expect(criteriaSentence(p)).toBe('No criterion moved; dose-based 50 mg still governs');
    expect(criteriaSentence({ before: null, after: null })).toBeNull();
  });

  it('explains an evaluation where a criterion that does not govern moves and no limit does', () => {
    const { items, pairs, summary } = criterionOnlyImpact();
    expect(items).toEqual([]);
    expect(summary).toMatchObject({ pairsMoved: 0, criterionChanged: 0, criteriaMoved: 1 });
    expect(pairs).toHaveLength(1);
    expect(pairs[0]).toMatchObject({ previous: 'B', next: 'A', macoChange: 0 });
    expect(criteriaSentence(pairs[0]!)).toBe(
      'Health-based 1,250,000 mg → 500,000 mg; general limit 1,000 mg still governs',
    );
  });
});
