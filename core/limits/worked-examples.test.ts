import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  computeWorkedCase,
  ld50Case,
  workedCaseProblems,
  workedComputations,
  type WorkedCase,
} from './golden/worked-cases.ts';
import { scoreByBands, TOXICITY_BANDS } from './risk.ts';

/**
 * Every worked example of shared/golden/worked-examples.json, computed by the engine from the
 * case's own inputs and compared with its expected values at the case's tolerance. Where a
 * published source got the arithmetic wrong, the case (and so this test) holds the correct value.
 */

const data = JSON.parse(
  readFileSync(join(import.meta.dirname, 'golden', 'worked-examples.json'), 'utf8'),
) as { cases: WorkedCase[] };

describe('worked examples (shared/golden/worked-examples.json)', () => {
  it('has a computation for every case and a case for every computation', () => {
    expect(data.cases.length).toBe(46);
    expect(Object.keys(workedComputations).sort()).toEqual(data.cases.map((c) => c.id).sort());
  });

  for (const c of data.cases) {
    it(`${c.id}: computes every expected value`, () => {
      const actual = computeWorkedCase(c);
      expect(Object.keys(c.expected).length).toBeGreaterThan(0);
      expect(workedCaseProblems(c, actual)).toEqual([]);
    });
  }

  it('D25: maps the template gap (ADE 99.5 ug/day) into a band instead of leaving it unmapped', () => {
    expect(scoreByBands(99.5, TOXICITY_BANDS)).toBe(3);
    expect(scoreByBands(9.5, TOXICITY_BANDS)).toBe(4);
    expect(scoreByBands(0.995, TOXICITY_BANDS)).toBe(5);
    expect(scoreByBands(500.5, TOXICITY_BANDS)).toBe(1);
  });

  it('G02: does not reproduce the published 10× error (250 mg)', () => {
    const c = data.cases.find((x) => x.id === 'G02-ld50-published-error');
    if (!c) throw new Error('missing G02');
    expect(ld50Case(c).MACO).not.toBeCloseTo(250, 0);
  });

  it('G14 and D18: recovery lowers the limit, never raises it', () => {
    const c = data.cases.find((x) => x.id === 'G14-recovery-direction-trap');
    const compute = workedComputations['G14-recovery-direction-trap'];
    if (!c || !compute) throw new Error('missing G14');
    const r = compute(c);
    expect(r.swab_acceptance_for_uncorrected_result).toBeLessThan(
      r.swab_limit_true_surface as number,
    );
    expect(r.rinse_acceptance_for_uncorrected_result).toBeLessThan(r.rinse_limit_true as number);
  });
});
