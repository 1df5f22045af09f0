import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  adeFromNoael,
  apiFromToc,
  apportion,
  correctForRecovery,
  extractLimit,
  limitInNextProductPpm,
  macoArl,
  macoDose,
  macoHealth,
  macoLd50,
  macoTopical,
  noelFromLd50,
  pdeForBodyWeight,
  pdeForRoute,
  pdeFromNoael,
  rinseLimit,
  rinseLimitFromMaco,
  rinseVolumeForArea,
  roundToSignificant,
  surfaceLimit,
  surfaceResidue,
  swabLimit,
  tocLimit,
  visibleResidueLimit,
} from './formulas.ts';

/** Table-driven checks of every formula, with hand-computed values (units in the names). */
describe('MACO criteria', () => {
  it.each([
    // hbel mg/day, MBS/MDD, MACO mg
    [0.001, 100e6 / 2400, 41.666_666_666_666_664],
    [0.05, 150e6 / 1200, 6250],
    [2, 120e6 / 3000, 80_000],
  ])('health: HBEL %d × ratio %d = %d mg', (hbel, ratio, maco) => {
    expect(macoHealth(hbel, ratio)).toBeCloseTo(maco, 9);
  });

  it.each([
    // TDD mg/day, SF, ratio, MACO mg
    [10, 1000, 150e6 / 1200, 1250],
    [5, 1000, 500_000 / 8, 312.5],
    [25, 1000, 80e6 / 2000, 1000],
  ])('dose: TDD %d / SF %d × ratio %d = %d mg', (tdd, sf, ratio, maco) => {
    expect(macoDose(tdd, sf, ratio)).toBeCloseTo(maco, 9);
  });

  it.each([
    // LD50 mg/kg, BW kg, EF, NOEL mg/day
    [331, 70, 2000, 11.585],
    [250, 70, 2000, 8.75],
    [2800, 70, 2000, 98],
    [5000, 70, 2000, 175],
  ])('NOEL: LD50 %d × BW %d / EF %d = %d mg/day', (ld50, bw, ef, noel) => {
    expect(noelFromLd50(ld50, bw, ef)).toBeCloseTo(noel, 9);
  });

  it.each([
    [11.585, 1000, 400e6 / 500, 9268],
    [8.75, 1000, 100e6 / 350, 2500],
    [98, 10_000, 100e6 / 500, 1960],
  ])('LD50: NOEL %d / SF %d × ratio %d = %d mg', (noel, sf, ratio, maco) => {
    expect(macoLd50(noel, sf, ratio)).toBeCloseTo(maco, 6);
  });

  it.each([
    [10, 50, 500],
    [10, 250, 2500],
    [100, 250, 25_000],
    [5, 382.2753998, 1911.376999],
  ])('general limit: %d ppm × %d kg = %d mg (never divided by a dose)', (ppm, kg, maco) => {
    expect(macoArl(ppm, kg)).toBeCloseTo(maco, 6);
  });

  it('topicals: strength × batch / SF', () => {
    expect(macoTopical(0.02, 1000, 300e6)).toBeCloseTo(6000, 9);
  });

  it.each([
    [0.05, 1200, 41.666_666_666_666_67],
    [96e-6, 320, 0.3],
    [7.2, 10_000, 720],
  ])('L1: %d mg/day over %d mg/day = %d ppm', (amount, mdd, ppm) => {
    expect(limitInNextProductPpm(amount, mdd)).toBeCloseTo(ppm, 9);
  });

  it('every criterion grows linearly with the next product’s batch size', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e-6, max: 1e6, noNaN: true }),
        fc.double({ min: 1, max: 1e4, noNaN: true }),
        fc.double({ min: 1, max: 1e9, noNaN: true }),
        fc.double({ min: 1.01, max: 100, noNaN: true }),
        (amount, sf, ratio, k) => {
          expect(macoHealth(amount, ratio * k) / macoHealth(amount, ratio)).toBeCloseTo(k, 9);
          expect(macoDose(amount, sf, ratio * k) / macoDose(amount, sf, ratio)).toBeCloseTo(k, 9);
          expect(macoArl(amount, ratio * k) / macoArl(amount, ratio)).toBeCloseTo(k, 9);
        },
      ),
    );
  });
});

describe('HBEL derivations', () => {
  it.each([
    [250, 50, [5, 10, 5, 1, 1], 50],
    [71.65, 50, [5, 10, 1, 10, 1], 7.165],
    [10, 50, [5, 10, 5, 1, 1], 2],
    [1, 50, [12, 10, 2, 10, 1], 0.020_833_333_333_333_332],
  ] as const)('PDE: NOAEL %d × W %d / ΠF', (noael, w, [f1, f2, f3, f4, f5], pde) => {
    expect(pdeFromNoael(noael, w, { f1, f2, f3, f4, f5 })).toBeCloseTo(pde, 12);
  });

  it('ADE, route and body-weight corrections', () => {
    expect(adeFromNoael(0.5, 50, { ufc: 300, mf: 1, pk: 1 })).toBeCloseTo(0.083_333_333, 8);
    expect(pdeForRoute(2, 0.2, 1)).toBeCloseTo(0.4, 12);
    expect(pdeForBodyWeight(2, 50, 3.5)).toBeCloseTo(0.14, 12);
  });

  it.each([
    [7.165, 2, 7.2],
    [0.0208333, 3, 0.0208],
    [41666.67, 2, 42000],
  ])('rounds %d to %d significant digits for display: %d', (v, d, r) => {
    expect(roundToSignificant(v, d)).toBe(r);
  });
});

describe('surface, swab and rinse limits', () => {
  it.each([
    [83.333_333_333_333_33, 210_000, 0.000_396_825_396_825_397],
    [300, 59_999.88, 0.005_000_01],
  ])('SAL: %d mg over %d sqcm', (maco, area, sal) => {
    expect(surfaceLimit(maco, area)).toBeCloseTo(sal, 9);
  });

  it('multiplies recovery into swab and rinse limits (never divides)', () => {
    expect(swabLimit(0.00125, 25, 1)).toBeCloseTo(0.031_25, 12);
    expect(swabLimit(0.00125, 25, 0.72)).toBeCloseTo(0.0225, 12);
    expect(rinseLimit(0.00125, 400_000, 0.85, 100_000)).toBeCloseTo(0.004_25, 12);
    expect(rinseLimitFromMaco(1, 0.757, 500)).toBeCloseTo(0.001_514, 12);
    fc.assert(
      fc.property(
        fc.double({ min: 1e-9, max: 1, noNaN: true }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        (sal, r) => {
          expect(swabLimit(sal, 25, r)).toBeLessThanOrEqual(swabLimit(sal, 25, 1));
          expect(rinseLimit(sal, 1e5, r, 1e4)).toBeLessThanOrEqual(rinseLimit(sal, 1e5, 1, 1e4));
        },
      ),
    );
  });

  it('rinse over the whole area equals the APIC target value MACO × r / V', () => {
    const maco = 1200;
    const area = 455_000;
    expect(rinseLimit(maco / area, area, 0.8, 400_000)).toBeCloseTo(
      rinseLimitFromMaco(maco, 0.8, 400_000),
      15,
    );
  });

  it('apportions a MACO by area so the SAL is the same on every item and the sum is the MACO', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 1e6, noNaN: true }),
        fc.array(fc.double({ min: 1, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 20 }),
        (maco, areas) => {
          const shares = apportion(maco, areas);
          const total = shares.reduce((a, b) => a + b, 0);
          expect(total / maco).toBeCloseTo(1, 9);
          const sal = maco / areas.reduce((a, b) => a + b, 0);
          shares.forEach((s, i) => expect(s / (areas[i] ?? 1) / sal).toBeCloseTo(1, 9));
        },
      ),
    );
    expect(apportion(1200, [12, 10, 8])).toEqual([480, 400, 320]);
  });

  it.each([
    [0.052_397_7, 20, 0.002_619_885],
    [0.0659341, 10, 0.006_593_41],
  ])('extract concentration: %d mg per swab in %d ml', (swab, volume, c) => {
    expect(extractLimit(swab, volume)).toBeCloseTo(c, 9);
  });
});

describe('results, recovery, TOC and visual limits', () => {
  it('corrects a result by recovery, capped at 100 %', () => {
    expect(correctForRecovery(18, 0.72)).toBeCloseTo(25, 12);
    expect(correctForRecovery(18, 1.1)).toBe(18);
  });

  it('back-calculates surface residue from an extract', () => {
    expect(surfaceResidue(0.85, 10, 1, 25, 0.85)).toBeCloseTo(0.4, 12);
  });

  it('converts between API and TOC limits', () => {
    expect(tocLimit(6.4, 0.55)).toBeCloseTo(3.52, 12);
    expect(apiFromToc(2.9, 0.15, 0.55)).toBeCloseTo(5, 12);
  });

  it('derives a visible residue limit and a rinse volume', () => {
    expect(visibleResidueLimit(100, 25.8064)).toBeCloseTo(3.875_01, 5);
    expect(rinseVolumeForArea(20, 100, 2500)).toBe(500);
  });
});
