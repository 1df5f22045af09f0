import type { TStatisticsAlertKind } from '../labels/enum-labels.ts';
import type { TStatistics } from '../schemas/verification.schemas.ts';

/**
 * Plain-words alerts of ongoing verification (core/verification/README.md, "Ongoing
 * verification"), kept apart from the arithmetic in statistics.ts.
 */

export type StatisticsAlert = TStatistics['alerts'][number];

/** Rules a point can break (ZStatisticsPoint.alerts). */
export type PointAlertKind = Exclude<TStatisticsAlertKind, 'ppuBelowTarget'>;

/**
 * A percent of limit as the charts and messages show it: one decimal (86.0), and two
 * significant digits below 1 % (0.042) so that a small result never reads as 0.0.
 */
export function formatPercent(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const size = Math.abs(value);
  if (size === 0 || size >= 1) return value.toFixed(1);
  return value.toFixed(Math.min(20, 1 - Math.floor(Math.log10(size))));
}

/**
 * The day of a result as a message names it. The server passes the facility's own format
 * (its zone and date format); without one, the UTC day.
 */
export type DayFormat = (takenAt: string) => string;

function utcDay(takenAt: string): string {
  return takenAt.slice(0, 10);
}

export interface PointAlertInput {
  takenAt: string;
  percentOfLimit: number;
  ewma: number;
  kinds: readonly PointAlertKind[];
  /** True when the previous point's EWMA was above its UCL too (one message per excursion). */
  ewmaTrendGoesOn: boolean;
}

export interface AlertLimits {
  alertPercent: number;
  actionPercent: number;
  ucl: number | null;
  ewmaUcl: number | null;
}

/**
 * The messages of one point: the highest level it reaches (action implies alert, so one line),
 * the UCL, a censored bound above the limit, and the start of an EWMA excursion.
 */
export function pointAlertMessages(
  point: PointAlertInput,
  limits: AlertLimits,
  formatDay: DayFormat = utcDay,
): StatisticsAlert[] {
  const { takenAt, kinds } = point;
  const value = formatPercent(point.percentOfLimit);
  const day = formatDay(takenAt);
  const out: StatisticsAlert[] = [];
  if (kinds.includes('aboveAction')) {
    out.push({
      kind: 'aboveAction',
      takenAt,
      message: `Result at ${value} % of limit on ${day} is above the action level (${limits.actionPercent} %)`,
    });
  } else if (kinds.includes('aboveAlert')) {
    out.push({
      kind: 'aboveAlert',
      takenAt,
      message: `Result at ${value} % of limit on ${day} is above the alert level (${limits.alertPercent} %)`,
    });
  }
  if (kinds.includes('aboveUcl') && limits.ucl !== null) {
    out.push({
      kind: 'aboveUcl',
      takenAt,
      message: `Result at ${value} % of limit on ${day} is above the control limit (UCL ${formatPercent(limits.ucl)} %)`,
    });
  }
  if (kinds.includes('censoredAboveLimit')) {
    out.push({
      kind: 'censoredAboveLimit',
      takenAt,
      message: `Result on ${day} is only known to be below ${value} % of limit: the method cannot show it is within the limit`,
    });
  }
  if (kinds.includes('ewmaTrend') && !point.ewmaTrendGoesOn && limits.ewmaUcl !== null) {
    out.push({
      kind: 'ewmaTrend',
      takenAt,
      // Two decimals: a smoothed value sits close to its limit, one decimal could show them equal.
      message: `EWMA at ${point.ewma.toFixed(2)} % on ${day} is above its control limit (${limits.ewmaUcl.toFixed(2)} %): results are drifting up`,
    });
  }
  return out;
}

/** A drawn point with the rules it breaks (ZStatisticsPoint's fields of those names). */
type AlertedPoint = Pick<PointAlertInput, 'takenAt' | 'percentOfLimit' | 'ewma'> & {
  alerts: readonly string[];
};

/** What a series' alerts follow from besides its points: thresholds, control limits, Ppu. */
export interface AlertFigures extends AlertLimits {
  ppuLower95: number | null;
  ppuTarget: number;
}

/**
 * The alerts of a series, oldest first, from each point's broken rules (its `alerts`), then the
 * capability alert: the server words them for its reports, the client again from the columns it
 * is sent (statistics-columns.ts), so the messages are never sent point by point.
 */
export function seriesAlerts(
  points: readonly AlertedPoint[],
  figures: AlertFigures,
  formatDay: DayFormat = utcDay,
): StatisticsAlert[] {
  const alerts: StatisticsAlert[] = [];
  // One EWMA message per excursion: its first point above the EWMA limit.
  let previousAboveEwma = false;
  for (const point of points) {
    const kinds = point.alerts as readonly PointAlertKind[];
    if (kinds.length > 0) {
      const input = { ...point, kinds, ewmaTrendGoesOn: previousAboveEwma };
      for (const alert of pointAlertMessages(input, figures, formatDay)) alerts.push(alert);
    }
    previousAboveEwma = kinds.includes('ewmaTrend');
  }
  const last = points[points.length - 1];
  if (last && figures.ppuLower95 !== null && figures.ppuLower95 < figures.ppuTarget)
    alerts.push(ppuAlert(figures.ppuLower95, figures.ppuTarget, last.takenAt));
  return alerts;
}

export function ppuAlert(ppuLower95: number, ppuTarget: number, takenAt: string): StatisticsAlert {
  return {
    kind: 'ppuBelowTarget',
    takenAt,
    message: `Ppu lower bound ${ppuLower95.toFixed(2)} is below the target ${ppuTarget}`,
  };
}
