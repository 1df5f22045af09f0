import { describe, expect, it } from 'vitest';
import { ZStatistics } from '../schemas/verification.schemas.ts';
import golden from './golden/censored-fits.json' with { type: 'json' };
import { formatPercent, verificationStatistics, type StatisticsPointInput } from './statistics.ts';

/**
 * Points on consecutive days of March 2026; a string 'c4' is a result censored below 4 %, 'a40'
 * one above its upper limit at 40 %.
 */
function series(values: readonly (number | string)[]): StatisticsPointInput[] {
  return values.map((v, i) => ({
    resultId: i + 1,
    historical: false,
    takenAt: `2026-03-${String(i + 1).padStart(2, '0')}T10:00:00.000Z`,
    label: `R${i + 1}`,
    percentOfLimit: typeof v === 'number' ? v : Number(v.slice(1)),
    censoredBelow: typeof v === 'string' && v.startsWith('c'),
    censoredAbove: typeof v === 'string' && v.startsWith('a'),
  }));
}

/** R survreg's figures for a golden case (golden/censored-fits.json). */
function goldenCase(name: string) {
  const found = golden.cases.find((c) => c.name === name);
  if (!found) throw new Error(`No golden case ${name}`);
  return found;
}

function closeTo(actual: number | null, expected: number, digits = 6) {
  expect(actual).not.toBeNull();
  expect(actual!).toBeCloseTo(expected, digits);
}

describe('verificationStatistics', () => {
  it('computes the individuals, EWMA and Ppu of plain results by hand', () => {
    const stats = verificationStatistics(series([10, 20, 30, 40]));
    // mean = (10 + 20 + 30 + 40) / 4 = 25
    closeTo(stats.mean, 25);
    // s² = (15² + 5² + 5² + 15²) / (4 − 1) = 500 / 3 → s = 12.909944
    // MR = 10, 10, 10 → MR̄ = 10; UCL = 25 + 2.66 × 10 = 51.6
    closeTo(stats.mrBar, 10);
    closeTo(stats.ucl, 51.6);
    expect(stats.points.map((p) => p.movingRange)).toEqual([null, 10, 10, 10]);
    // σ = 10 / 1.128 = 8.865248; √(0.2 / 1.8) = 1/3; EWMA UCL = 25 + 3 × 8.865248 / 3 = 33.865248
    closeTo(stats.ewmaUcl, 33.865248);
    // z0 = 25; z1 = 0.2×10 + 0.8×25 = 22; z2 = 4 + 17.6 = 21.6; z3 = 6 + 17.28 = 23.28;
    // z4 = 8 + 18.624 = 26.624
    const ewma = stats.points.map((p) => p.ewma);
    [22, 21.6, 23.28, 26.624].forEach((z, i) => closeTo(ewma[i]!, z));
    // Ppu = (100 − 25) / (3 × 12.909944) = 75 / 38.729833 = 1.936492
    closeTo(stats.ppu, 1.936492);
    // 1/(9·4·1.936492²) = 1/135 = 0.007407; 1/(2·3) = 0.166667; √0.174074 = 0.417222;
    // 1 − 1.645 × 0.417222 = 0.313670; lower = 1.936492 × 0.313670 = 0.607418
    closeTo(stats.ppuLower95, 0.607418, 5);
    expect(stats).toMatchObject({
      count: 4,
      censoredCount: 0,
      censoredAboveCount: 0,
      ewmaLambda: 0.2,
      ppuTarget: 2,
      ppuMethod: 'Normal, Bissell lower bound',
      ppuSubstitution: null,
      ppuSubstitutionLower95: null,
      censoredFit: null,
      statement: null,
    });
    expect(stats.points.every((p) => p.alerts.length === 0)).toBe(true);
    expect(stats.alerts).toEqual([
      {
        kind: 'ppuBelowTarget',
        takenAt: '2026-03-04T10:00:00.000Z',
        message: 'Ppu lower bound 0.61 is below the target 2',
      },
    ]);
    // The route adds groupBy, key and label; the rest is the schema's shape.
    expect(() =>
      ZStatistics.parse({ ...stats, groupBy: 'equipment', key: '1', label: 'Mixer' }),
    ).not.toThrow();
  });

  it('flags a result above the action level and the UCL, in plain words', () => {
    const stats = verificationStatistics(series([10, 12, 10, 12, 86]));
    // mean = 130 / 5 = 26; MR = 2, 2, 2, 74 → MR̄ = 80 / 4 = 20; UCL = 26 + 2.66 × 20 = 79.2
    closeTo(stats.mean, 26);
    closeTo(stats.ucl, 79.2);
    // EWMA UCL = 26 + 3 × (20 / 1.128) / 3 = 43.730496; z5 = 0.2×86 + 0.8×17.2096 = 30.96768
    closeTo(stats.ewmaUcl, 43.730496);
    closeTo(stats.points[4]!.ewma, 30.96768);
    // s² = (16² + 14² + 16² + 14² + 60²) / 4 = 4504 / 4 = 1126 → s = 33.555923
    // Ppu = 74 / 100.667770 = 0.735091; lower = 0.735091 − 1.645 × √(1/45 + 0.540359/8)
    //     = 0.735091 − 1.645 × √0.089767 = 0.735091 − 0.492861 = 0.242230
    closeTo(stats.ppu, 0.735091);
    closeTo(stats.ppuLower95, 0.24223, 5);
    expect(stats.points[4]!.alerts).toEqual(['aboveAlert', 'aboveAction', 'aboveUcl']);
    expect(stats.points.slice(0, 4).every((p) => p.alerts.length === 0)).toBe(true);
    expect(stats.alerts.map((a) => a.message)).toEqual([
      'Result at 86.0 % of limit on 2026-03-05 is above the action level (80 %)',
      'Result at 86.0 % of limit on 2026-03-05 is above the control limit (UCL 79.2 %)',
      'Ppu lower bound 0.24 is below the target 2',
    ]);
  });

  it('takes the facility thresholds: alert at or above the alert percent', () => {
    const stats = verificationStatistics(series([10, 20, 30, 40]), {
      alertPercent: 30,
      actionPercent: 90,
      ppuTarget: 0.5,
    });
    expect(stats.points.map((p) => p.alerts)).toEqual([[], [], ['aboveAlert'], ['aboveAlert']]);
    // Lower bound 0.607418 (first case) reaches the target 0.5: no Ppu alert.
    expect(stats.alerts.map((a) => a.message)).toEqual([
      'Result at 30.0 % of limit on 2026-03-03 is above the alert level (30 %)',
      'Result at 40.0 % of limit on 2026-03-04 is above the alert level (30 %)',
    ]);
    expect(stats.ppuTarget).toBe(0.5);
  });

  it('sees a drift on the EWMA that no single result shows, with one message per excursion', () => {
    const values = [20, 21, 20, 21, 20, 21, 20, 21, 23, 24, 23, 24, 23, 24, 23, 24, 20, 21, 20, 21];
    const stats = verificationStatistics(series(values));
    // mean = (4×41 + 4×47 + 2×41) / 20 = 434 / 20 = 21.7
    // MR: seventeen of 1, 21→23 = 2, 24→20 = 4 → MR̄ = 23 / 19 = 1.210526
    // UCL = 21.7 + 2.66 × 1.210526 = 24.92: no result (at most 24) reaches it
    closeTo(stats.ucl, 24.92);
    // EWMA UCL = 21.7 + 3 × (1.210526 / 1.128) / 3 = 21.7 + 1.073162 = 22.773162
    closeTo(stats.ewmaUcl, 22.773162);
    // z0 = 21.7; z1 = 4 + 17.36 = 21.36; z2 = 4.2 + 17.088 = 21.288; z3 = 4 + 17.0304 = 21.0304;
    // z4 = 21.02432; z5 = 20.819456; z6 = 20.8555648; z7 = 20.68445184; z8 = 20.747561472;
    // z9 = 4.6 + 16.598049 = 21.198049; z10 = 4.8 + 16.958439 = 21.758439;
    // z11 = 4.6 + 17.406751 = 22.006751; z12 = 4.8 + 17.605401 = 22.405401;
    // z13 = 4.6 + 17.924321 = 22.524321; z14 = 4.8 + 18.019457 = 22.819457 (above);
    // z15 = 4.6 + 18.255565 = 22.855565; z16 = 4.8 + 18.284452 = 23.084452;
    // z17 = 4 + 18.467562 = 22.467562 (back below)
    const z = stats.points.map((p) => p.ewma);
    closeTo(z[12]!, 22.524321);
    closeTo(z[13]!, 22.819457);
    closeTo(z[15]!, 23.084452);
    closeTo(z[16]!, 22.467562);
    const trend = stats.points.flatMap((p, i) => (p.alerts.includes('ewmaTrend') ? [i + 1] : []));
    expect(trend).toEqual([14, 15, 16]);
    expect(stats.points.some((p) => p.alerts.includes('aboveUcl'))).toBe(false);
    expect(stats.alerts.filter((a) => a.kind === 'ewmaTrend')).toEqual([
      {
        kind: 'ewmaTrend',
        takenAt: '2026-03-14T10:00:00.000Z',
        message:
          'EWMA at 22.82 % on 2026-03-14 is above its control limit (22.77 %): results are drifting up',
      },
    ]);
  });

  // Changed with issue 26: Ppu came from the half-bound values; it now comes from the
  // censored-data fit, and the half-bound figure stays beside it for comparison.
  it('estimates Ppu of censored results by maximum likelihood, the half-bound figure beside it', () => {
    const stats = verificationStatistics(series([10, 'c4', 20, 30]));
    // The charts keep the half-bound values 10, 2, 20, 30: mean = 62 / 4 = 15.5;
    // MR = 8, 18, 10 → MR̄ = 12; UCL = 15.5 + 2.66 × 12 = 47.42
    closeTo(stats.mean, 15.5);
    closeTo(stats.mrBar, 12);
    closeTo(stats.ucl, 47.42);
    // R survreg: normal log-likelihood −12.8705 above the lognormal's −14.0011 → normal.
    const r = goldenCase('one below LOQ of four');
    closeTo(stats.ppu, r.normal.ppu, 6);
    // The bound shown is the lower of R's profile bound and Bissell's form on the fitted Ppu
    // (the profile bound is too narrow with 4 results): ppu − 1.645 √(1/36 + ppu²/6).
    const bissellOnFit = r.normal.ppu - 1.645 * Math.sqrt(1 / 36 + r.normal.ppu ** 2 / 6);
    closeTo(stats.ppuLower95, Math.min(r.normal.ppuLower95, bissellOnFit), 6);
    expect(bissellOnFit).toBeLessThan(r.normal.ppuLower95);
    expect(stats.ppuMethod).toBe('Censored-data maximum likelihood (normal), 1 of 4 censored');
    expect(stats.censoredFit).toMatchObject({ distribution: 'normal' });
    closeTo(stats.censoredFit!.mu, r.normal.mu, 6);
    closeTo(stats.censoredFit!.sigma, r.normal.sigma, 6);
    closeTo(stats.censoredFit!.otherLogLikelihood, r.lognormal.logLikelihood, 6);
    // Half-bound substitution: s² = (5.5² + 13.5² + 4.5² + 14.5²) / 3 = 443 / 3 → s = 12.151817
    // Ppu = 84.5 / 36.455452 = 2.317897
    // lower = 2.317897 − 1.645 × √(1/36 + 5.372648/6) = 2.317897 − 1.645 × 0.960843 = 0.737310
    closeTo(stats.ppuSubstitution, 2.317897, 5);
    closeTo(stats.ppuSubstitutionLower95, 0.73731, 4);
    // Drawn at its bound, flagged, never zero.
    expect(stats.points[1]).toMatchObject({
      percentOfLimit: 4,
      censoredBelow: true,
      censoredAbove: false,
      movingRange: 8,
    });
    expect(stats.censoredCount).toBe(1);
    expect(stats.statement).toBeNull();
  });

  // Changed with issue 26: half censored gave no Ppu; the censored-data fit gives one.
  it('draws no centre line when half or more are censored, the fit still estimating Ppu', () => {
    const stats = verificationStatistics(series([10, 'c4', 20, 'c6']));
    const r = goldenCase('half below LOQ');
    expect(stats).toMatchObject({
      count: 4,
      censoredCount: 2,
      mean: null,
      ucl: null,
      mrBar: null,
      ewmaUcl: null,
      ppuMethod: 'Censored-data maximum likelihood (normal), 2 of 4 censored',
      ppuSubstitution: null,
      ppuSubstitutionLower95: null,
      statement: null,
    });
    closeTo(stats.ppu, r.normal.ppu, 6);
    closeTo(stats.ppuLower95, r.normal.ppuLower95, 6);
    // The lower bound 0.91 is below the target 2.
    expect(stats.alerts.map((a) => a.message)).toEqual([
      'Ppu lower bound 0.91 is below the target 2',
    ]);
    // Every pair touches a censored result: no moving range is known.
    expect(stats.points.map((p) => p.movingRange)).toEqual([null, null, null, null]);
    // z0 = 10 (first drawn); z1 = 2 + 8 = 10; z2 = 0.8 + 8 = 8.8; z3 = 4 + 7.04 = 11.04;
    // z4 = 1.2 + 8.832 = 10.032
    [10, 8.8, 11.04, 10.032].forEach((z, i) => closeTo(stats.points[i]!.ewma, z));
  });

  it('states the highest bound when every result is censored, and flags a bound above the limit', () => {
    expect(verificationStatistics(series(['c4', 'c6.5', 'c5'])).statement).toBe(
      'All 3 results below LOQ, at most 6.5 % of limit',
    );
    expect(verificationStatistics(series(['c0.042'])).statement).toBe(
      'The only result is below LOQ, at most 0.042 % of limit',
    );
    const stats = verificationStatistics(series(['c60', 'c120']));
    expect(stats.statement).toBe('All 2 results below LOQ, at most 120.0 % of limit');
    // Below 60 % breaks no level rule; below 120 % cannot show the result passes.
    expect(stats.points.map((p) => p.alerts)).toEqual([[], ['censoredAboveLimit']]);
    expect(stats.alerts.map((a) => a.message)).toEqual([
      'Result on 2026-03-02 is only known to be below 120.0 % of limit: the method cannot show it is within the limit',
    ]);
  });

  it.each([
    { name: 'one result', values: [30], statement: 'One result: capability needs at least 2' },
    {
      name: 'equal results',
      values: [25, 25, 25],
      statement: 'No spread among the 3 results: capability not estimated',
    },
    // 0.1 + 0.1 + 0.1 = 0.30000000000000004: a rounding residue, not a spread.
    {
      name: 'equal decimals',
      values: [0.1, 0.1, 0.1],
      statement: 'No spread among the 3 results: capability not estimated',
    },
  ])('gives no Ppu for $name, and says why', ({ values, statement }) => {
    const stats = verificationStatistics(series(values));
    expect(stats.ppu).toBeNull();
    expect(stats.ppuLower95).toBeNull();
    expect(stats.statement).toBe(statement);
    closeTo(stats.mean, values[0]!, 9);
    // One result: no moving range, so no limits; equal results: MR̄ = 0, UCL = mean.
    if (values.length === 1)
      expect([stats.mrBar, stats.ucl, stats.ewmaUcl]).toEqual([null, null, null]);
    else closeTo(stats.ucl, values[0]!, 9);
    expect(stats.alerts).toEqual([]);
  });

  // Computed by hand: Ppu = (100 − mean) / (3 s); lower = Ppu × (1 − 1.645 × √(1/(9 n Ppu²) +
  // 1/(2 (n − 1)))) (Bissell).
  it.each([
    {
      // mean 30; s² = (10² + 0 + 10²) / 2 = 100, s = 10; Ppu = 70 / 30 = 2.333333;
      // 1/(9·3·5.444444) = 1/147 = 0.006803; 1/4 = 0.25; √0.256803 = 0.506757;
      // 1 − 1.645 × 0.506757 = 0.166385; lower = 2.333333 × 0.166385 = 0.388232
      values: [20, 30, 40],
      mean: 30,
      s: 10,
      ppu: 2.333333,
      lower: 0.388232,
    },
    {
      // mean 65; s² = (15² + 5² + 5² + 15²) / 3 = 166.666667, s = 12.909944;
      // Ppu = 35 / 38.729833 = 0.903696; 1/(9·4·0.816667) = 1/29.4 = 0.034014; 1/6 = 0.166667;
      // √0.200680 = 0.447974; 1 − 0.736917 = 0.263083; lower = 0.903696 × 0.263083 = 0.237747
      values: [50, 60, 70, 80],
      mean: 65,
      s: 12.909944,
      ppu: 0.903696,
      lower: 0.237747,
    },
    {
      // mean 70/6 = 11.666667; s² = (5 × (5/3)² + (25/3)²) / 5 = 16.666667, s = 4.082483;
      // Ppu = 88.333333 / 12.247449 = 7.212386; 1/(9·6·52.018519) = 1/2809 = 0.000356;
      // 1/10 = 0.1; √0.100356 = 0.316790; 1 − 0.521120 = 0.478880; lower = 3.453869
      values: [10, 10, 10, 10, 10, 20],
      mean: 11.666667,
      s: 4.082483,
      ppu: 7.212386,
      lower: 3.453869,
    },
  ])('gives Ppu $ppu and its lower 95 % bound $lower for $values', ({ values, ...hand }) => {
    const stats = verificationStatistics(series(values));
    closeTo(stats.mean, hand.mean, 5);
    closeTo(stats.ppu, hand.ppu, 5);
    closeTo(stats.ppu, (100 - hand.mean) / (3 * hand.s), 5);
    closeTo(stats.ppuLower95, hand.lower, 5);
  });

  it('lowers Ppu when a result is above its upper limit rather than exact at it', () => {
    const exact = verificationStatistics(series([10, 20, 30, 40]));
    const above = verificationStatistics(series([10, 20, 30, 'a40']));
    // R survreg: the lognormal (log-likelihood −12.7005) fits better than the normal (−13.2917).
    const r = goldenCase('one above the upper limit');
    expect(above.censoredAboveCount).toBe(1);
    expect(above.censoredCount).toBe(0);
    expect(above.points[3]).toMatchObject({ censoredAbove: true, censoredBelow: false });
    expect(above.ppuMethod).toBe('Censored-data maximum likelihood (lognormal), 1 of 4 censored');
    closeTo(above.ppu, r.lognormal.ppu, 6);
    closeTo(above.ppuLower95, r.lognormal.ppuLower95, 6);
    // Counted exact at 40 %, as before issue 26: Ppu 1.936492, lower 0.607418 (first case).
    closeTo(above.ppuSubstitution, 1.936492, 5);
    closeTo(above.ppuSubstitutionLower95, 0.607418, 5);
    expect(above.ppu!).toBeLessThan(exact.ppu!);
    expect(above.ppuLower95!).toBeLessThan(exact.ppuLower95!);
    // Even with the normal kept, the value above 40 % raises μ and σ: Ppu 1.698081 < 1.936492.
    expect(r.normal.ppu).toBeLessThan(exact.ppu!);
  });

  it.each([
    {
      name: 'all censored, some above the upper limit',
      values: ['c4', 'a120', 'c5'],
      statement:
        'All 3 results censored (2 below LOQ, 1 above the upper limit): capability not estimated',
    },
    {
      name: 'one exact value among censored ones',
      values: ['c4', 12, 'c5', 'a60'],
      statement:
        '3 of 4 results censored, fewer than 2 different exact values: capability not estimated',
    },
    {
      name: 'equal exact values among censored ones',
      values: [12, 12, 'c5'],
      statement:
        '1 of 3 results censored, fewer than 2 different exact values: capability not estimated',
    },
  ])('gives no Ppu for $name, and says why', ({ values, statement }) => {
    const stats = verificationStatistics(series(values));
    expect(stats).toMatchObject({
      ppu: null,
      ppuLower95: null,
      ppuMethod: null,
      ppuSubstitution: null,
      censoredFit: null,
      statement,
    });
  });

  it('keeps the lower bound below Ppu when the mean is above the limit', () => {
    const stats = verificationStatistics(series([110, 120]));
    // mean = 115; s = √((5² + 5²) / 1) = 7.071068; Ppu = −15 / 21.213203 = −0.707107
    // lower = −0.707107 − 1.645 × √(1/18 + 0.5/2) = −0.707107 − 1.645 × 0.552771 = −1.616416
    closeTo(stats.ppu, -0.707107);
    closeTo(stats.ppuLower95, -1.616416, 5);
  });

  it('orders by time, then by result id (historical results first)', () => {
    const at = (day: string) => `2026-03-${day}T08:00:00.000Z`;
    const stats = verificationStatistics([
      {
        resultId: 7,
        historical: false,
        takenAt: at('02'),
        label: 'b',
        percentOfLimit: 5,
        censoredBelow: false,
      },
      {
        resultId: 3,
        historical: false,
        takenAt: at('02'),
        label: 'a',
        percentOfLimit: 6,
        censoredBelow: false,
      },
      {
        resultId: null,
        historical: true,
        takenAt: at('02'),
        label: 'h',
        percentOfLimit: 7,
        censoredBelow: false,
      },
      {
        resultId: 9,
        historical: false,
        takenAt: '2026-03-01T23:00:00-02:00',
        label: 'z',
        percentOfLimit: 8,
        censoredBelow: false,
      },
      {
        resultId: 1,
        historical: false,
        takenAt: at('01'),
        label: 'first',
        percentOfLimit: 9,
        censoredBelow: false,
      },
    ]);
    // 2026-03-01T23:00−02:00 is 2026-03-02T01:00Z: before the 08:00Z results of that day.
    expect(stats.points.map((p) => p.label)).toEqual(['first', 'z', 'h', 'a', 'b']);
  });

  it('answers nothing for no results', () => {
    const stats = verificationStatistics([], { ewmaLambda: 0.3, ppuTarget: undefined });
    expect(stats).toMatchObject({ count: 0, censoredCount: 0, points: [], alerts: [] });
    expect([stats.mean, stats.ucl, stats.mrBar, stats.ewmaUcl]).toEqual([null, null, null, null]);
    expect([stats.ppu, stats.ppuLower95, stats.statement]).toEqual([null, null, null]);
    // The settings in force are still reported, for the chart's legend.
    expect([stats.ewmaLambda, stats.ppuTarget]).toEqual([0.3, 2]);
  });

  it('counts 5,000 results with their censored ones, out of order in time', () => {
    let seed = 11;
    const random = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
    const points = Array.from({ length: 5_000 }, (_, i) => ({
      resultId: 5_000 - i,
      historical: false,
      takenAt: new Date(Date.UTC(2020, 0, 1) + (i % 2_000) * 3_600_000).toISOString(),
      label: `R${i}`,
      percentOfLimit: random() * 60,
      censoredBelow: i % 7 === 0,
    }));
    // Speed is measured by bench/verification-statistics.bench.ts, not here.
    const stats = verificationStatistics(points);
    expect(stats.count).toBe(5_000);
    // i % 7 === 0 for i = 0, 7, …, 4998: 714 + 1
    expect(stats.censoredCount).toBe(715);
    expect(stats.ppu).not.toBeNull();
    const times = stats.points.map((p) => Date.parse(p.takenAt));
    expect(times.every((t, k) => k === 0 || times[k - 1]! <= t)).toBe(true);
  });
});

describe('formatPercent', () => {
  it.each([
    [86, '86.0'],
    [79.2, '79.2'],
    [123.456, '123.5'],
    [1, '1.0'],
    [0.5, '0.50'],
    [0.042, '0.042'],
    [0, '0.0'],
  ])('%s → %s', (value, shown) => {
    expect(formatPercent(value)).toBe(shown);
  });
});
