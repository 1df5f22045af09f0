import { logNormalCdf, logNormalDensity, millsRatio } from './normal-tail.ts';

/**
 * Maximum likelihood of a normal or a lognormal on percent of limit with left-censored (`< LOD`,
 * `< LOQ`) and right-censored (`> upper limit`) results, and Ppu with its lower 95 % confidence
 * bound by profile likelihood (core/verification/README.md, "Ongoing verification"). Checked
 * against R's survreg (core/verification/golden/).
 *
 * The likelihood of an exact value is its density, of a value below a bound b the CDF at b, of a
 * value above b the survival at b; for the lognormal the density is on percent of limit (the
 * Jacobian 1/x is included), as survreg reports it, so the two log-likelihoods compare.
 */

export type Censoring = 'exact' | 'below' | 'above';
export type Distribution = 'normal' | 'lognormal';

export interface Observation {
  /** Percent of limit: the value, or the bound of a censored result. */
  value: number;
  censoring: Censoring;
}

export interface FitParameters {
  distribution: Distribution;
  /** Mean and standard deviation on percent of limit (normal) or on its natural log (lognormal). */
  mu: number;
  sigma: number;
  logLikelihood: number;
}

export interface CensoredCapability extends FitParameters {
  ppu: number;
  ppuLower95: number;
  /** The log-likelihood of the distribution not chosen; null when it could not be fitted. */
  otherLogLikelihood: number | null;
}

/** One-sided 95 % normal quantile, exact (the likelihood-ratio cutoff is its square). */
const Z95 = 1.6448536269514722;
const LOG_100 = Math.log(100);

interface Point {
  y: number;
  censoring: Censoring;
}

interface Derivatives {
  l: number;
  gMu: number;
  gTau: number;
  hMuMu: number;
  hMuTau: number;
  hTauTau: number;
}

/**
 * Log-likelihood, gradient and Hessian in (μ, τ = log σ). With z = (y − μ)/σ and f the log of
 * the density's kernel (−z²/2), of Φ(z) or of Φ(−z): ∂z/∂μ = −1/σ and ∂z/∂τ = −z.
 */
function derivatives(points: readonly Point[], mu: number, tau: number, jacobian: number) {
  const sigma = Math.exp(tau);
  const d: Derivatives = { l: -jacobian, gMu: 0, gTau: 0, hMuMu: 0, hMuTau: 0, hTauTau: 0 };
  for (const { y, censoring } of points) {
    const z = (y - mu) / sigma;
    let f1: number;
    let f2: number;
    let exact = 0;
    if (censoring === 'exact') {
      d.l += logNormalDensity(z) - tau;
      f1 = -z;
      f2 = -1;
      exact = 1;
    } else if (censoring === 'below') {
      d.l += logNormalCdf(z);
      const m = millsRatio(z);
      f1 = m;
      f2 = -m * (z + m);
    } else {
      d.l += logNormalCdf(-z);
      const m = millsRatio(-z);
      f1 = -m;
      f2 = -m * (-z + m);
    }
    d.gMu += -f1 / sigma;
    d.gTau += -z * f1 - exact;
    d.hMuMu += f2 / (sigma * sigma);
    d.hMuTau += (f2 * z + f1) / sigma;
    d.hTauTau += z * f1 + z * z * f2;
  }
  return d;
}

/** Largest step of τ = log σ in one iteration: σ changes at most e² times. */
const MAX_TAU_STEP = 2;

/**
 * Damped Newton on (μ, τ): the Newton step where the Hessian is negative definite, else the
 * gradient, halved until the likelihood does not drop. The censored normal's log-likelihood is
 * concave in (μ/σ, 1/σ) (Burridge 1981), so Newton in (μ, τ) settles in a few steps.
 */
function maximise(points: readonly Point[], jacobian: number, mu0: number, tau0: number) {
  let mu = mu0;
  let tau = tau0;
  let d = derivatives(points, mu, tau, jacobian);
  for (let iteration = 0; iteration < 500 && Number.isFinite(d.l); iteration++) {
    const det = d.hMuMu * d.hTauTau - d.hMuTau * d.hMuTau;
    let sMu: number;
    let sTau: number;
    if (d.hMuMu < 0 && det > 0) {
      sMu = -(d.hTauTau * d.gMu - d.hMuTau * d.gTau) / det;
      sTau = -(-d.hMuTau * d.gMu + d.hMuMu * d.gTau) / det;
    } else {
      const scale = 1 / Math.max(1, Math.abs(d.hMuMu), Math.abs(d.hTauTau));
      sMu = d.gMu * scale;
      sTau = d.gTau * scale;
    }
    const sigma = Math.exp(tau);
    const shrink = Math.min(1, MAX_TAU_STEP / Math.abs(sTau), (10 * sigma) / Math.abs(sMu));
    sMu *= shrink;
    sTau *= shrink;
    let t = 1;
    let next = derivatives(points, mu + sMu, tau + sTau, jacobian);
    while (!(next.l >= d.l - 1e-12 * Math.abs(d.l)) && t > 1e-10) {
      t /= 2;
      next = derivatives(points, mu + t * sMu, tau + t * sTau, jacobian);
    }
    if (t <= 1e-10) break;
    mu += t * sMu;
    tau += t * sTau;
    const gain = next.l - d.l;
    d = next;
    const small =
      Math.abs(t * sMu) <= 1e-12 * Math.max(1, Math.abs(mu)) && Math.abs(t * sTau) <= 1e-12;
    if (small || (gain >= 0 && gain <= 1e-15 * Math.max(1, Math.abs(d.l)) && t === 1)) break;
  }
  return { mu, tau, d };
}

/** The points on the fitted scale, and the log-Jacobian Σ log x over exact values. */
function scaled(observations: readonly Observation[], distribution: Distribution) {
  if (distribution === 'normal') {
    return {
      points: observations.map((o) => ({ y: o.value, censoring: o.censoring })),
      jacobian: 0,
    };
  }
  let jacobian = 0;
  const points = observations.map((o) => {
    const y = Math.log(o.value);
    if (o.censoring === 'exact') jacobian += y;
    return { y, censoring: o.censoring };
  });
  return { points, jacobian };
}

/**
 * Whether the exact values differ: with two different ones the likelihood has a finite maximum
 * with σ > 0. Values equal but for a rounding residue do not count as different.
 */
function exactValuesDiffer(points: readonly Point[]): boolean {
  const exact = points.filter((p) => p.censoring === 'exact').map((p) => p.y);
  if (exact.length < 2) return false;
  const low = exact.reduce((a, b) => Math.min(a, b));
  const high = exact.reduce((a, b) => Math.max(a, b));
  return high - low > 1e-9 * Math.max(1, Math.abs(low), Math.abs(high));
}

interface Fitted extends FitParameters {
  points: Point[];
  jacobian: number;
  tau: number;
  d: Derivatives;
}

export function fitCensored(
  observations: readonly Observation[],
  distribution: Distribution,
): Fitted | null {
  if (distribution === 'lognormal' && observations.some((o) => !(o.value > 0))) return null;
  const { points, jacobian } = scaled(observations, distribution);
  if (!exactValuesDiffer(points)) return null;
  // Start from the mean and spread of all values at their bounds.
  const n = points.length;
  const mean = points.reduce((sum, p) => sum + p.y, 0) / n;
  const spread = Math.sqrt(points.reduce((sum, p) => sum + (p.y - mean) ** 2, 0) / (n - 1));
  const { mu, tau, d } = maximise(points, jacobian, mean, Math.log(spread));
  if (!Number.isFinite(d.l) || !Number.isFinite(mu) || !Number.isFinite(tau)) return null;
  return { distribution, mu, sigma: Math.exp(tau), logLikelihood: d.l, points, jacobian, tau, d };
}

/**
 * The profile log-likelihood of Ppu = p: μ = c − 3σp, maximised over τ by damped Newton in one
 * dimension (d μ/dτ = −3σp, and so is its second derivative).
 */
function profile(fit: Fitted, c: number, p: number, tau0: number): { l: number; tau: number } {
  const at = (tau: number) => {
    const d = derivatives(fit.points, c - 3 * Math.exp(tau) * p, tau, fit.jacobian);
    const j = -3 * Math.exp(tau) * p;
    return {
      l: d.l,
      g: d.gMu * j + d.gTau,
      h: d.hMuMu * j * j + 2 * d.hMuTau * j + d.hTauTau + d.gMu * j,
    };
  };
  let tau = tau0;
  let current = at(tau);
  for (let iteration = 0; iteration < 200; iteration++) {
    let step = current.h < 0 ? -current.g / current.h : Math.sign(current.g) * 0.5;
    step = Math.max(-MAX_TAU_STEP, Math.min(MAX_TAU_STEP, step));
    let t = 1;
    let next = at(tau + step);
    while (!(next.l >= current.l - 1e-12 * Math.abs(current.l)) && t > 1e-10) {
      t /= 2;
      next = at(tau + t * step);
    }
    if (t <= 1e-10) break;
    tau += t * step;
    current = next;
    if (Math.abs(t * step) <= 1e-12) break;
  }
  return { l: current.l, tau };
}

/**
 * The lower end of the one-sided 95 % profile-likelihood interval of Ppu: the p below p̂ where
 * 2 (ℓ̂ − ℓ(p)) = 1.6449². Bracketed from the Wald standard error, then regula falsi (Illinois).
 */
function profileLowerBound(fit: Fitted, c: number, ppu: number): number {
  const target = fit.logLikelihood - (Z95 * Z95) / 2;
  let tau = fit.tau;
  const excess = (p: number) => {
    const r = profile(fit, c, p, tau);
    tau = r.tau;
    return r.l - target;
  };
  // Wald standard error of p̂ from the observed information (delta method).
  const { hMuMu, hMuTau, hTauTau } = fit.d;
  const det = hMuMu * hTauTau - hMuTau * hMuTau;
  const dMu = -1 / (3 * fit.sigma);
  const dTau = -ppu;
  const variance = (-hTauTau * dMu * dMu + 2 * hMuTau * dMu * dTau - hMuMu * dTau * dTau) / det;
  let width = Number.isFinite(variance) && variance > 0 ? Math.sqrt(variance) : 0.1;
  width = Math.max(width, 1e-3 * Math.max(1, Math.abs(ppu)));
  let hi = ppu;
  let fHi = fit.logLikelihood - target;
  let lo = ppu - width;
  let fLo = excess(lo);
  for (let i = 0; i < 60 && fLo > 0; i++) {
    hi = lo;
    fHi = fLo;
    width *= 2;
    lo = ppu - width;
    fLo = excess(lo);
  }
  let side = 0;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * Math.max(1, Math.abs(lo)); i++) {
    const p = (lo * fHi - hi * fLo) / (fHi - fLo);
    const f = excess(p);
    if (f > 0) {
      hi = p;
      fHi = f;
      if (side === 1) fLo /= 2;
      side = 1;
    } else {
      lo = p;
      fLo = f;
      if (side === -1) fHi /= 2;
      side = -1;
    }
    if (f === 0) return p;
  }
  return (lo + hi) / 2;
}

/** Ppu of a fit against 100 % of limit: on the log scale for the lognormal. */
export function ppuOf(fit: FitParameters): number {
  const c = fit.distribution === 'normal' ? 100 : LOG_100;
  return (c - fit.mu) / (3 * fit.sigma);
}

/**
 * Both fits, and the one with the larger log-likelihood chosen (the normal on a tie, or when
 * the lognormal cannot be fitted: a value or bound at or below 0). Both have two parameters, so
 * this is the choice by AIC too; the data say which shape they follow, neither is assumed.
 * Null when neither can be fitted (fewer than two distinct exact values).
 */
export function censoredCapability(
  observations: readonly Observation[],
): CensoredCapability | null {
  const normal = fitCensored(observations, 'normal');
  const lognormal = fitCensored(observations, 'lognormal');
  const chosen =
    lognormal && (!normal || lognormal.logLikelihood > normal.logLikelihood) ? lognormal : normal;
  if (!chosen) return null;
  const other = chosen === normal ? lognormal : normal;
  const c = chosen.distribution === 'normal' ? 100 : LOG_100;
  const ppu = ppuOf(chosen);
  const ppuLower95 = profileLowerBound(chosen, c, ppu);
  if (!Number.isFinite(ppu) || !Number.isFinite(ppuLower95)) return null;
  const { distribution, mu, sigma, logLikelihood } = chosen;
  return {
    distribution,
    mu,
    sigma,
    logLikelihood,
    ppu,
    ppuLower95,
    otherLogLikelihood: other ? other.logLikelihood : null,
  };
}
