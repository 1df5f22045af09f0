import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  censoredCapability,
  fitCensored,
  ppuOf,
  type Distribution,
  type Observation,
} from './censored-fit.ts';
import golden from './golden/censored-fits.json' with { type: 'json' };
import { erfc, logNormalCdf } from './normal-tail.ts';

/**
 * The censored-data fits against R's survreg (golden/censored-fits.R made golden/censored-fits.json;
 * the suite does not run R). Tolerances: 1e-7 relative on μ, σ and the log-likelihood (ours and
 * R's both converge far tighter, to about 1e-12), 1e-6 relative on the profile-likelihood bound
 * (R's optimize and uniroot against our Newton and regula falsi).
 */

/** '12' exact, '<5' below 5, '>60' above 60, on percent of limit. */
function observations(values: readonly string[]): Observation[] {
  return values.map((v) => {
    if (v.startsWith('<')) return { value: Number(v.slice(1)), censoring: 'below' };
    if (v.startsWith('>')) return { value: Number(v.slice(1)), censoring: 'above' };
    return { value: Number(v), censoring: 'exact' };
  });
}

function relativelyClose(actual: number, expected: number, tolerance: number) {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(
    tolerance * Math.max(1, Math.abs(expected)),
  );
}

describe('the censored fits agree with R survreg', () => {
  const rows = golden.cases.flatMap((c) =>
    (['normal', 'lognormal'] as const).map((distribution) => ({
      name: c.name,
      values: c.values,
      distribution,
      r: c[distribution],
    })),
  );

  it.each(rows)('$name, $distribution', ({ values, distribution, r }) => {
    const fit = fitCensored(observations(values), distribution as Distribution);
    expect(fit).not.toBeNull();
    relativelyClose(fit!.mu, r.mu, 1e-7);
    relativelyClose(fit!.sigma, r.sigma, 1e-7);
    relativelyClose(fit!.logLikelihood, r.logLikelihood, 1e-7);
    relativelyClose(ppuOf(fit!), r.ppu, 1e-7);
  });

  it.each(golden.cases)('$name: the better fit, its Ppu and profile bound', (c) => {
    const capability = censoredCapability(observations(c.values))!;
    const better = c.lognormal.logLikelihood > c.normal.logLikelihood ? 'lognormal' : 'normal';
    const r = c[better];
    expect(capability.distribution).toBe(better);
    relativelyClose(capability.ppu, r.ppu, 1e-7);
    relativelyClose(capability.ppuLower95, r.ppuLower95, 1e-6);
    const other = better === 'normal' ? c.lognormal : c.normal;
    relativelyClose(capability.otherLogLikelihood!, other.logLikelihood, 1e-7);
  });

  it.each(golden.logNormalCdf)('log Φ($z) as R pnorm(log.p = TRUE)', ({ z, logCdf }) => {
    expect(Math.abs(logNormalCdf(z) - logCdf)).toBeLessThanOrEqual(1e-12 * Math.abs(logCdf));
  });
});

describe('erfc', () => {
  // Reference values: erfc(x) to 16 digits (Abramowitz & Stegun table 7.1 extended; R's
  // 2 * pnorm(-x * sqrt(2))).
  it.each([
    [0.5, 0.4795001221869535],
    [1, 0.15729920705028513],
    [2, 0.004677734981047266],
    [2.5, 4.06952017444959e-4],
    [5, 1.5374597944280349e-12],
    [10, 2.088487583762545e-45],
  ])('erfc(%s) = %s', (x, value) => {
    expect(Math.abs(erfc(x) / value - 1)).toBeLessThan(1e-13);
    expect(Math.abs(erfc(-x) - (2 - value))).toBeLessThan(1e-15);
  });
});

describe('censoredCapability', () => {
  it('gives nothing with fewer than two different exact values', () => {
    expect(censoredCapability(observations(['12', '<5', '<5']))).toBeNull();
    expect(censoredCapability(observations(['12', '12', '>60']))).toBeNull();
  });

  it('fits only the normal when a value is 0 (no lognormal), and says so', () => {
    const capability = censoredCapability(observations(['0', '10', '20', '<5']))!;
    expect(capability.distribution).toBe('normal');
    expect(capability.otherLogLikelihood).toBeNull();
  });

  it('lowers Ppu when a result is above its upper limit rather than at it', () => {
    // Same distribution on both sides: only the censoring differs.
    const exact = fitCensored(observations(['10', '20', '30', '40']), 'normal')!;
    const above = fitCensored(observations(['10', '20', '30', '>40']), 'normal')!;
    // Exact: μ = 25, σ = √(500/4) = 11.180340 (ML: divisor n), Ppu = 75 / 33.541020 = 2.236068.
    relativelyClose(exact.mu, 25, 1e-9);
    relativelyClose(exact.sigma, Math.sqrt(125), 1e-9);
    expect(ppuOf(above)).toBeLessThan(ppuOf(exact));
    expect(above.mu).toBeGreaterThan(exact.mu);
  });

  it('finds a maximum whose profile bound lies below Ppu, for any mix of censoring', () => {
    // Percent of limit to two decimals, as results are reported.
    const value = fc.integer({ min: 50, max: 15_000 }).map((hundredths) => hundredths / 100);
    const observation = fc.record({
      value,
      censoring: fc.constantFrom('exact', 'exact', 'exact', 'below', 'above'),
    }) as fc.Arbitrary<Observation>;
    fc.assert(
      fc.property(fc.array(observation, { minLength: 2, maxLength: 25 }), (sample) => {
        const capability = censoredCapability(sample);
        const exactValues = new Set(
          sample.filter((o) => o.censoring === 'exact').map((o) => o.value),
        );
        if (exactValues.size < 2) return capability === null;
        if (capability === null) return false;
        const chosen = fitCensored(sample, capability.distribution)!;
        // No nearby (μ, σ) is more likely than the fit.
        for (const [dMu, dTau] of [
          [1e-4, 0],
          [-1e-4, 0],
          [0, 1e-4],
          [0, -1e-4],
        ] as const) {
          const nearby = fitNear(sample, chosen, dMu, dTau);
          if (nearby > chosen.logLikelihood + 1e-9 * Math.abs(chosen.logLikelihood)) return false;
        }
        return capability.ppuLower95 < capability.ppu;
      }),
      { numRuns: 60, seed: 26 },
    );
  });
});

/** The log-likelihood at (μ + dμ·σ, σ·e^{dτ}), computed independently of the fit's own code. */
function fitNear(
  sample: readonly Observation[],
  fit: { distribution: Distribution; mu: number; sigma: number },
  dMu: number,
  dTau: number,
): number {
  const mu = fit.mu + dMu * fit.sigma;
  const sigma = fit.sigma * Math.exp(dTau);
  let l = 0;
  for (const o of sample) {
    const y = fit.distribution === 'lognormal' ? Math.log(o.value) : o.value;
    const z = (y - mu) / sigma;
    if (o.censoring === 'exact') {
      l += -0.5 * z * z - Math.log(sigma) - 0.5 * Math.log(2 * Math.PI);
      if (fit.distribution === 'lognormal') l -= y;
    } else if (o.censoring === 'below') l += logNormalCdf(z);
    else l += logNormalCdf(-z);
  }
  return l;
}
