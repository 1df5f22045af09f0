/**
 * The standard normal's log-CDF and inverse Mills ratio, accurate far into the tails: a censored
 * result far from the fitted mean contributes log Φ(z) with z of −30 or less, where
 * log(1 − Φ(−z)) computed naively is log(0). Both are built on the scaled complementary error
 * function erfcx(x) = e^{x²} erfc(x), which never underflows.
 */

const SQRT_PI = Math.sqrt(Math.PI);
const LOG_HALF = Math.log(0.5);
const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);
const SQRT_2_OVER_PI = Math.sqrt(2 / Math.PI);

/**
 * erf(x) for 0 ≤ x < 2.5 by the series of positive terms
 * erf(x) = 2/√π e^{−x²} Σ 2ⁿ x^{2n+1} / (1·3·…·(2n+1)): no cancellation, full relative accuracy.
 */
function erfSeries(x: number): number {
  const x2 = x * x;
  let term = x;
  let sum = x;
  for (let n = 1; n < 200; n++) {
    term *= (2 * x2) / (2 * n + 1);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return (2 / SQRT_PI) * Math.exp(-x2) * sum;
}

/**
 * erfcx(x) for x ≥ 2.5 by the continued fraction
 * erfc(x) = e^{−x²}/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …)))), modified Lentz.
 */
function erfcxContinuedFraction(x: number): number {
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let k = 1; k < 500; k++) {
    const a = k / 2;
    d = x + a * d;
    d = d === 0 ? tiny : d;
    c = x + a / c;
    c = c === 0 ? tiny : c;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return 1 / (f * SQRT_PI);
}

/** e^{x²} erfc(x) for x ≥ 0. */
export function erfcx(x: number): number {
  if (x < 2.5) return Math.exp(x * x) * (1 - erfSeries(x));
  return erfcxContinuedFraction(x);
}

/** erfc(x) for any x. */
export function erfc(x: number): number {
  if (x >= 0) return x < 2.5 ? 1 - erfSeries(x) : Math.exp(-x * x) * erfcxContinuedFraction(x);
  return 2 - erfc(-x);
}

/** log Φ(z), Φ the standard normal CDF: Φ(z) = erfc(−z/√2) / 2. */
export function logNormalCdf(z: number): number {
  if (z === Number.NEGATIVE_INFINITY) return Number.NEGATIVE_INFINITY;
  if (z === Number.POSITIVE_INFINITY) return 0;
  const x = -z / Math.SQRT2;
  if (x > 0) return LOG_HALF + Math.log(erfcx(x)) - x * x;
  return Math.log1p(-0.5 * erfc(-x));
}

/** log φ(z), φ the standard normal density. */
export function logNormalDensity(z: number): number {
  return -0.5 * z * z - LOG_SQRT_2PI;
}

/**
 * φ(z)/Φ(z) (the inverse Mills ratio of the lower tail): the derivative of log Φ(z). For z < 0 it
 * is √(2/π) / erfcx(−z/√2), with no exp of a large negative number.
 */
export function millsRatio(z: number): number {
  if (z < 0) return SQRT_2_OVER_PI / erfcx(-z / Math.SQRT2);
  return Math.exp(logNormalDensity(z)) / (1 - 0.5 * erfc(z / Math.SQRT2));
}
