import type {
  TStatistics,
  TStatisticsPointColumns,
  TStatisticsWire,
} from '../schemas/verification.schemas.ts';
import { seriesAlerts, type DayFormat } from './statistics-alerts.ts';
import { pointSeries, type StatisticsPoint } from './statistics.ts';

const SEPARATOR = ' · ';

/** Values numbered in the order they first occur. */
function dictionary<T>() {
  const indexes = new Map<T, number>();
  return {
    indexOf(value: T): number {
      let index = indexes.get(value);
      if (index === undefined) indexes.set(value, (index = indexes.size));
      return index;
    },
    entries: (): T[] => [...indexes.keys()],
  };
}

/**
 * The points as columns (ZStatisticsPointColumns). Lossless: `pointsFromColumns` gives back the
 * same points, field for field, for any time a Date writes as ISO (the route's times are), since
 * JSON carries a double exactly and the series are computed again with the same operations.
 */
export function pointsToColumns(points: readonly StatisticsPoint[]): TStatisticsPointColumns {
  const parts = dictionary<string>();
  const ruleSets = dictionary<string>();
  const columns: TStatisticsPointColumns = {
    resultIdStep: [],
    takenAtStep: [],
    labelHead: [],
    labelTail: [],
    labelParts: [],
    percentOfLimit: [],
    censoredBelow: [],
    censoredAbove: [],
    alertPoint: [],
    alertRuleSet: [],
    alertRules: [],
  };
  let previous = 0;
  let previousId = 0;
  // The results of one sampling share its time: each time is read and checked once.
  const times = new Map<string, number>();
  points.forEach((p, i) => {
    let time = times.get(p.takenAt);
    if (time === undefined) {
      time = Date.parse(p.takenAt);
      if (Number.isNaN(time) || new Date(time).toISOString() !== p.takenAt)
        throw new Error(`A statistics point's time is not an ISO time: ${p.takenAt}`);
      times.set(p.takenAt, time);
    }
    columns.resultIdStep.push(p.resultId === null ? null : p.resultId - previousId);
    if (p.resultId !== null) previousId = p.resultId;
    columns.takenAtStep.push(time - previous);
    previous = time;
    const cut = p.label.indexOf(SEPARATOR);
    columns.labelHead.push(parts.indexOf(cut < 0 ? p.label : p.label.slice(0, cut)));
    columns.labelTail.push(cut < 0 ? -1 : parts.indexOf(p.label.slice(cut + SEPARATOR.length)));
    columns.percentOfLimit.push(p.percentOfLimit);
    if (p.censoredBelow) columns.censoredBelow.push(i);
    if (p.censoredAbove) columns.censoredAbove.push(i);
    if (p.alerts.length > 0) {
      columns.alertPoint.push(i);
      columns.alertRuleSet.push(ruleSets.indexOf(JSON.stringify(p.alerts)));
    }
  });
  columns.labelParts = parts.entries();
  columns.alertRules = ruleSets.entries().map((set) => JSON.parse(set) as string[]);
  return columns;
}

/** The points again, with their moving range and EWMA from the figures they were drawn with. */
export function pointsFromColumns(
  columns: TStatisticsPointColumns,
  figures: Pick<TStatistics, 'ewmaLambda' | 'mean'>,
): StatisticsPoint[] {
  const below = new Set(columns.censoredBelow);
  const above = new Set(columns.censoredAbove);
  const rules = new Map(
    columns.alertPoint.map((point, i) => [point, columns.alertRules[columns.alertRuleSet[i]!]!]),
  );
  const drawn = columns.percentOfLimit.map((percentOfLimit, i) => ({
    percentOfLimit,
    censoredBelow: below.has(i),
  }));
  const { movingRanges, ewmas } = pointSeries(drawn, figures.ewmaLambda, figures.mean);
  let time = 0;
  let previousId = 0;
  return drawn.map(({ percentOfLimit, censoredBelow }, i) => {
    time += columns.takenAtStep[i]!;
    const head = columns.labelParts[columns.labelHead[i]!]!;
    const tail = columns.labelTail[i]!;
    const step = columns.resultIdStep[i]!;
    const resultId = step === null ? null : (previousId += step);
    return {
      resultId,
      historical: resultId === null,
      takenAt: new Date(time).toISOString(),
      label: tail < 0 ? head : `${head}${SEPARATOR}${columns.labelParts[tail]!}`,
      percentOfLimit,
      censoredBelow,
      censoredAbove: above.has(i),
      movingRange: movingRanges[i]!,
      ewma: ewmas[i]!,
      alerts: [...(rules.get(i) ?? [])],
    };
  });
}

/**
 * The statistics as the route answers them: the points as columns, and instead of the alerts'
 * messages the thresholds they are worded from (the points carry the rules each one breaks).
 */
export function statisticsToWire<T extends Pick<TStatistics, 'points' | 'alerts'>>(
  statistics: T,
  thresholds: Pick<TStatisticsWire, 'alertPercent' | 'actionPercent'>,
): Omit<T, 'points' | 'alerts'> &
  Pick<TStatisticsWire, 'points' | 'alertPercent' | 'actionPercent'> {
  const { points, alerts: _worded, ...figures } = statistics;
  return {
    ...figures,
    points: pointsToColumns(points),
    alertPercent: thresholds.alertPercent,
    actionPercent: thresholds.actionPercent,
  };
}

/**
 * The route's answer with its points as objects again and its alerts worded, as the charts and
 * tables read them; `formatDay` names a result's day as the facility writes dates.
 */
export function statisticsFromWire(
  wire: TStatisticsWire,
  formatDay?: DayFormat,
): TStatistics & Pick<TStatisticsWire, 'invalidated' | 'invalidatedCount'> {
  const points = pointsFromColumns(wire.points, wire);
  return { ...wire, points, alerts: seriesAlerts(points, wire, formatDay) };
}
