import type { TStatistics } from '../schemas/verification.schemas.ts';
import { censoredCapability, type Observation } from './censored-fit.ts';
import {
  formatPercent,
  seriesAlerts,
  type DayFormat,
  type PointAlertKind,
} from './statistics-alerts.ts';

export { formatPercent } from './statistics-alerts.ts';

/**
 * Ongoing verification of cleaning (issue 12; core/verification/README.md, "Ongoing
 * verification"): every counted result as percent of its own limit, on an individuals / moving
 * range chart, an EWMA chart and the one-sided capability Ppu against 100 % of limit.
 * Linear in the number of points (two passes after the sort).
 */

export type StatisticsPoint = TStatistics['points'][number];
/** censoredAbove may be left out: historical results are never `> upper limit`. */
export type StatisticsPointInput = Omit<
  StatisticsPoint,
  'movingRange' | 'ewma' | 'alerts' | 'censoredAbove'
> & { censoredAbove?: boolean };
export type VerificationStatistics = Omit<TStatistics, 'groupBy' | 'key' | 'label'>;

export interface StatisticsSettings {
  /** Ppu the lower 95 % bound should reach. */
  ppuTarget: number;
  /** EWMA weight of the newest result, 0 < λ ≤ 1. */
  ewmaLambda: number;
  alertPercent: number;
  actionPercent: number;
}

export const DEFAULT_STATISTICS_SETTINGS: StatisticsSettings = {
  ppuTarget: 2,
  ewmaLambda: 0.2,
  alertPercent: 50,
  actionPercent: 80,
};

/** Shewhart constants for individuals: d2 of a moving range of 2, and 3 / d2. */
const D2 = 1.128;
const E2 = 2.66;
/** One-sided 95 % normal quantile (Bissell's lower confidence bound). */
const Z95 = 1.645;

/** Milliseconds of a point's time; an unreadable time goes last. */
function timeOf(point: StatisticsPointInput): number {
  const time = Date.parse(point.takenAt);
  return Number.isNaN(time) ? Number.MAX_VALUE : time;
}

/** Oldest first, then by result id (historical results, without one, first); stable. */
function byTimeThenResult(points: readonly StatisticsPointInput[]): StatisticsPointInput[] {
  const keyed = points.map((point) => ({ point, time: timeOf(point), id: point.resultId ?? -1 }));
  keyed.sort((a, b) => (a.time === b.time ? a.id - b.id : a.time < b.time ? -1 : 1));
  return keyed.map((k) => k.point);
}

function emptyStatistics(settings: StatisticsSettings): VerificationStatistics {
  return {
    count: 0,
    censoredCount: 0,
    censoredAboveCount: 0,
    points: [],
    mean: null,
    ucl: null,
    mrBar: null,
    ewmaLambda: settings.ewmaLambda,
    ewmaUcl: null,
    ppu: null,
    ppuLower95: null,
    ppuTarget: settings.ppuTarget,
    ppuMethod: null,
    ppuSubstitution: null,
    ppuSubstitutionLower95: null,
    censoredFit: null,
    statement: null,
    alerts: [],
  };
}

/**
 * The moving range and the EWMA of each point, oldest first, from the drawn values alone: the
 * server computes them for its alerts, and the client again from the values it is sent
 * (statistics-columns.ts), with the same operations in the same order, so both draw the same
 * doubles. `mean` is the centre line, null when half or more are censored (no estimate): then a
 * censored value is drawn at its bound and the EWMA starts at the first value, an upper envelope;
 * with an estimate a censored value counts at half its bound.
 */
export function pointSeries(
  sorted: readonly Pick<StatisticsPointInput, 'percentOfLimit' | 'censoredBelow'>[],
  lambda: number,
  mean: number | null,
): { movingRanges: (number | null)[]; ewmas: number[] } {
  const estimable = mean !== null;
  const counted = (i: number) => {
    const p = sorted[i]!;
    return estimable && p.censoredBelow ? p.percentOfLimit / 2 : p.percentOfLimit;
  };
  const movingRanges: (number | null)[] = [];
  const ewmas: number[] = [];
  let z = mean ?? sorted[0]?.percentOfLimit ?? 0;
  for (let i = 0; i < sorted.length; i++) {
    z = lambda * counted(i) + (1 - lambda) * z;
    ewmas.push(z);
    let movingRange: number | null = null;
    if (i > 0) {
      const bothExact = !sorted[i]!.censoredBelow && !sorted[i - 1]!.censoredBelow;
      if (estimable || bothExact) movingRange = Math.abs(counted(i) - counted(i - 1));
    }
    movingRanges.push(movingRange);
  }
  return { movingRanges, ewmas };
}

export function verificationStatistics(
  input: readonly StatisticsPointInput[],
  partialSettings: Partial<StatisticsSettings> = {},
  /** How the alert messages name a result's day: the facility's format on a screen. */
  formatDay?: DayFormat,
): VerificationStatistics {
  // Field by field: a setting given as undefined (unset in the facility rule) takes its default.
  const d = DEFAULT_STATISTICS_SETTINGS;
  const settings: StatisticsSettings = {
    ppuTarget: partialSettings.ppuTarget ?? d.ppuTarget,
    ewmaLambda: partialSettings.ewmaLambda ?? d.ewmaLambda,
    alertPercent: partialSettings.alertPercent ?? d.alertPercent,
    actionPercent: partialSettings.actionPercent ?? d.actionPercent,
  };
  const lambda = settings.ewmaLambda;
  const n = input.length;
  if (n === 0) return emptyStatistics(settings);
  const sorted = byTimeThenResult(input);
  const drawn = sorted.map((p) => p.percentOfLimit);
  const censoredCount = sorted.reduce((count, p) => count + (p.censoredBelow ? 1 : 0), 0);
  const censoredAboveCount = sorted.reduce((count, p) => count + (p.censoredAbove ? 1 : 0), 0);

  // The charts' choice: with fewer than half censored, a censored result counts at half its
  // bound (it lies somewhere in [0, bound)) and a `> upper limit` one at its bound; with half or
  // more, no centre line is honest. Ppu does not use these values when any is censored.
  const estimable = censoredCount * 2 < n;
  const values = sorted.map((p) => (p.censoredBelow ? p.percentOfLimit / 2 : p.percentOfLimit));

  let mean: number | null = null;
  let mrBar: number | null = null;
  let s: number | null = null;
  if (estimable) {
    let sum = 0;
    let rangeSum = 0;
    for (let i = 0; i < n; i++) {
      sum += values[i]!;
      if (i > 0) rangeSum += Math.abs(values[i]! - values[i - 1]!);
    }
    mean = sum / n;
    let squares = 0;
    for (const v of values) squares += (v - mean) ** 2;
    if (n >= 2) {
      mrBar = rangeSum / (n - 1);
      s = Math.sqrt(squares / (n - 1));
    }
  }
  const ucl = mean !== null && mrBar !== null ? mean + E2 * mrBar : null;
  // Asymptotic EWMA limit, sigma estimated from the moving range (sigma = MR̄ / d2).
  const ewmaUcl =
    mean !== null && mrBar !== null
      ? mean + 3 * (mrBar / D2) * Math.sqrt(lambda / (2 - lambda))
      : null;

  const { movingRanges, ewmas } = pointSeries(sorted, lambda, mean);
  const points: StatisticsPoint[] = sorted.map((p, i) => {
    const x = drawn[i]!;
    const z = ewmas[i]!;
    const kinds: PointAlertKind[] = [];
    // A censored result lies below its bound: it breaks no level rule, unless the bound itself
    // is at or above the limit (then the method cannot show the result passes).
    if (p.censoredBelow) {
      if (x >= 100) kinds.push('censoredAboveLimit');
    } else {
      if (x >= settings.alertPercent) kinds.push('aboveAlert');
      if (x >= settings.actionPercent) kinds.push('aboveAction');
      if (ucl !== null && x > ucl) kinds.push('aboveUcl');
    }
    if (ewmaUcl !== null && z > ewmaUcl) kinds.push('ewmaTrend');
    // Named fields, not a spread: only the schema's fields reach the response.
    const { resultId, historical, takenAt, label, censoredBelow } = p;
    return {
      resultId,
      historical,
      takenAt,
      label,
      percentOfLimit: x,
      censoredBelow,
      censoredAbove: p.censoredAbove === true,
      movingRange: movingRanges[i]!,
      ewma: z,
      alerts: kinds,
    };
  });

  const capabilityFigures = capability({ n, censoredCount, censoredAboveCount, mean, s, sorted });
  const { alertPercent, actionPercent, ppuTarget } = settings;
  const alerts = seriesAlerts(
    points,
    {
      alertPercent,
      actionPercent,
      ucl,
      ewmaUcl,
      ppuLower95: capabilityFigures.ppuLower95,
      ppuTarget,
    },
    formatDay,
  );
  return {
    count: n,
    censoredCount,
    censoredAboveCount,
    points,
    mean,
    ucl,
    mrBar,
    ewmaLambda: lambda,
    ewmaUcl,
    ...capabilityFigures,
    ppuTarget: settings.ppuTarget,
    alerts,
  };
}

interface CapabilityInput {
  n: number;
  censoredCount: number;
  censoredAboveCount: number;
  /** Substituted values' mean and standard deviation; null with half or more below LOQ. */
  mean: number | null;
  s: number | null;
  sorted: readonly StatisticsPointInput[];
}

type Capability = Pick<
  VerificationStatistics,
  | 'ppu'
  | 'ppuLower95'
  | 'ppuMethod'
  | 'ppuSubstitution'
  | 'ppuSubstitutionLower95'
  | 'censoredFit'
  | 'statement'
>;

const NO_CAPABILITY: Capability = {
  ppu: null,
  ppuLower95: null,
  ppuMethod: null,
  ppuSubstitution: null,
  ppuSubstitutionLower95: null,
  censoredFit: null,
  statement: null,
};

/**
 * Ppu = (100 − mean) / (3 s) and Bissell's lower 95 % bound. Written additively,
 * Ppu − 1.645 √(1/(9n) + Ppu²/(2(n−1))), which equals Ppu × (1 − 1.645 √(1/(9n Ppu²) +
 * 1/(2(n−1)))) for Ppu > 0 and stays a lower bound when Ppu ≤ 0 (mean at or above the limit).
 */
function bissell(n: number, mean: number, s: number): { ppu: number; lower: number } {
  const ppu = (100 - mean) / (3 * s);
  return { ppu, lower: ppu - Z95 * Math.sqrt(1 / (9 * n) + (ppu * ppu) / (2 * (n - 1))) };
}

function hasSpread(mean: number, s: number): boolean {
  // Equal values can leave a rounding residue instead of an exact 0.
  return s > 1e-12 * Math.max(1, Math.abs(mean));
}

/**
 * Without censored results: Bissell's figures on the mean and s, exact and tested since issue
 * 12. With censored results a substituted value is a guess (and a `> upper limit` counted at its
 * bound is optimistic), so Ppu and its bound come from the censored-data maximum likelihood
 * (censored-fit.ts); the substitution figure stays beside it, labelled, for comparison.
 */
function capability(input: CapabilityInput): Capability {
  const { n, censoredCount, censoredAboveCount, mean, s, sorted } = input;
  const none = (statement: string): Capability => ({ ...NO_CAPABILITY, statement });
  const censored = censoredCount + censoredAboveCount;
  if (censoredCount === n) {
    const highest = sorted.reduce((top, p) => Math.max(top, p.percentOfLimit), -Infinity);
    return none(
      n === 1
        ? `The only result is below LOQ, at most ${formatPercent(highest)} % of limit`
        : `All ${n} results below LOQ, at most ${formatPercent(highest)} % of limit`,
    );
  }
  if (censored === n) {
    return none(
      `All ${n} results censored (${censoredCount} below LOQ, ${censoredAboveCount} above the upper limit): capability not estimated`,
    );
  }
  if (censored === 0) {
    if (mean === null || s === null) return none('One result: capability needs at least 2');
    if (!hasSpread(mean, s))
      return none(`No spread among the ${n} results: capability not estimated`);
    const { ppu, lower } = bissell(n, mean, s);
    return { ...NO_CAPABILITY, ppu, ppuLower95: lower, ppuMethod: 'Normal, Bissell lower bound' };
  }
  const observations: Observation[] = sorted.map((p) => ({
    value: p.percentOfLimit,
    censoring: p.censoredBelow ? 'below' : p.censoredAbove ? 'above' : 'exact',
  }));
  const fit = censoredCapability(observations);
  if (!fit) {
    return none(
      `${censored} of ${n} results censored, fewer than 2 different exact values: capability not estimated`,
    );
  }
  const substitution =
    mean !== null && s !== null && hasSpread(mean, s) ? bissell(n, mean, s) : null;
  const { distribution, mu, sigma, logLikelihood, otherLogLikelihood } = fit;
  // The profile bound covers less than 95 % with few results (83 % at 4 results, 90 % at 10, by
  // simulation; README). Bissell's form on the fitted Ppu is wider there, so the lower of the two
  // is shown: a capability bound is never the looser of two estimates.
  const bissellOnFit = fit.ppu - Z95 * Math.sqrt(1 / (9 * n) + (fit.ppu * fit.ppu) / (2 * (n - 1)));
  return {
    ppu: fit.ppu,
    ppuLower95: Math.min(fit.ppuLower95, bissellOnFit),
    ppuMethod: `Censored-data maximum likelihood (${distribution}), ${censored} of ${n} censored`,
    ppuSubstitution: substitution?.ppu ?? null,
    ppuSubstitutionLower95: substitution?.lower ?? null,
    censoredFit: { distribution, mu, sigma, logLikelihood, otherLogLikelihood },
    statement: null,
  };
}
