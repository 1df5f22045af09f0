import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileLimits } from './compile.ts';
import { FIXED, runMatrix } from './matrix.ts';
import type { LimitsInput } from './model.ts';
import { facilityOf, facilityShapeArb, positive } from './facility-arbitrary.ts';
import { defaultPolicy } from './policy.ts';

/*
 * The policy's fixed sample limits (useFixedSampleLimits) are a ceiling on each pair's computed
 * swab and rinse limit, never a loosening (LeBlanc "default limits", reference §1.5): for any
 * facility, switching them on leaves every MACO and SAL as it was and no swab or rinse limit
 * higher than with the switch off; a limit that moves becomes the fixed limit and says so.
 */

const facilityArb = fc
  .record({
    facility: facilityShapeArb,
    swabArea: positive(1, 100),
    rinseLiters: positive(0.1, 100),
    swabRecovery: fc.option(fc.integer({ min: 10, max: 100 }), { nil: undefined }),
    rinseRecovery: fc.option(fc.integer({ min: 10, max: 100 }), { nil: undefined }),
    useSampleLimit: fc.boolean(),
    useResidueLimit: fc.boolean(),
    useSAR: fc.boolean(),
    caps: fc.tuple(positive(1e-6, 100), positive(1e-6, 100)),
    fixed: fc.tuple(positive(1e-9, 1000), positive(1e-9, 1000)),
  })
  .map((r) => {
    const { products, equipment, trains } = facilityOf(r.facility);
    const input: LimitsInput = {
      policy: {
        ...defaultPolicy('Chemical'),
        useSampleLimit: r.useSampleLimit,
        swabSampleLimit: r.caps[0],
        rinseSampleLimit: r.caps[1],
        useResidueLimit: r.useResidueLimit,
        useSAR: r.useSAR,
        fixedSwabLimit: r.fixed[0],
        fixedRinseLimit: r.fixed[1],
      },
      products,
      equipment,
      trains,
      sampling: {
        swabArea: { value: r.swabArea, unit: 'sqcm' },
        rinseVolume: { value: r.rinseLiters, unit: 'L' },
        ...(r.swabRecovery === undefined ? {} : { swabRecoveryPercentage: r.swabRecovery }),
        ...(r.rinseRecovery === undefined ? {} : { rinseRecoveryPercentage: r.rinseRecovery }),
      },
    };
    return input;
  });

interface PairNumbers {
  maco: number;
  sal: number;
  swab: number;
  rinse: number;
  swabFixed: boolean;
  rinseFixed: boolean;
}

function pairsOf(input: LimitsInput) {
  const m = compileLimits(input);
  const pairs = new Map<string, PairNumbers>();
  runMatrix(m, (v) =>
    pairs.set(`${v.previous}>${v.next}`, {
      maco: v.maco,
      sal: v.sal,
      swab: v.swabLimit,
      rinse: v.rinseLimit,
      swabFixed: v.swabRule === FIXED,
      rinseFixed: v.rinseRule === FIXED,
    }),
  );
  return { m, pairs };
}

/** NaN (no limit) stays NaN either way: a fixed limit never invents one for a pair without. */
function notAbove(on: number, off: number) {
  if (Number.isNaN(off)) return;
  expect(on).toBeLessThanOrEqual(off);
}

describe('useFixedSampleLimits, a ceiling never a loosening', () => {
  it('never raises a swab or rinse limit, and the fixed limit governs only where lower', () => {
    const seen = { fixed: 0, calculated: 0 };
    fc.assert(
      fc.property(facilityArb, (input) => {
        const off = pairsOf(input);
        const on = pairsOf({ ...input, policy: { ...input.policy, useFixedSampleLimits: true } });
        expect([...on.pairs.keys()]).toEqual([...off.pairs.keys()]);
        for (const [key, before] of off.pairs) {
          const after = on.pairs.get(key)!;
          expect(after.maco).toBe(before.maco);
          expect(after.sal).toBe(before.sal);
          expect(before.swabFixed || before.rinseFixed).toBe(false);
          notAbove(after.swab, before.swab);
          notAbove(after.rinse, before.rinse);
          // Marked fixed exactly where the fixed limit is what the pair got, below the rest.
          expect(after.swabFixed).toBe(on.m.fixedSwab < before.swab);
          expect(after.rinseFixed).toBe(on.m.fixedRinse < before.rinse);
          seen[after.swabFixed ? 'fixed' : 'calculated'] += 1;
          if (after.swabFixed) expect(after.swab).toBe(on.m.fixedSwab);
          else expect(after.swab).toBe(before.swab);
          if (after.rinseFixed) expect(after.rinse).toBe(on.m.fixedRinse);
          else expect(after.rinse).toBe(before.rinse);
        }
      }),
      { seed: 2026, numRuns: 300 },
    );
    // The random facilities reach both sides of the ceiling.
    expect(seen.fixed).toBeGreaterThan(100);
    expect(seen.calculated).toBeGreaterThan(100);
  });
});
