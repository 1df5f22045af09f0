import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ZStatisticsPointColumns, ZStatisticsResponse } from '../schemas/verification.schemas.ts';
import {
  pointsFromColumns,
  pointsToColumns,
  statisticsFromWire,
  statisticsToWire,
} from './statistics-columns.ts';
import {
  DEFAULT_STATISTICS_SETTINGS,
  verificationStatistics,
  type StatisticsPointInput,
} from './statistics.ts';

const DAY = 86_400_000;
const START = Date.parse('2025-01-01T00:00:00.000Z');

/** Results and historical results as the statistics route reads them. */
const arbitraryPoint = fc
  .record({
    resultId: fc.option(fc.integer({ min: 1, max: 2_000_000 }), { nil: null }),
    at: fc.integer({ min: 0, max: 700 * DAY }),
    run: fc.constantFrom('ST-0001 run 1', 'ST-0012 run 40', 'Study · 2019 campaign'),
    location: fc.option(fc.constantFrom('Valve', 'Hopper · inner wall', 'Final rinse'), {
      nil: null,
    }),
    percentOfLimit: fc.double({ min: 0, max: 400, noNaN: true }),
    censoring: fc.constantFrom('none', 'none', 'none', 'below', 'above'),
  })
  .map((p): StatisticsPointInput => ({
    resultId: p.resultId,
    historical: p.resultId === null,
    takenAt: new Date(START + p.at).toISOString(),
    label: p.location === null ? p.run : `${p.run} · ${p.location}`,
    percentOfLimit: p.percentOfLimit,
    censoredBelow: p.censoring === 'below',
    censoredAbove: p.censoring === 'above',
  }));

describe('statistics points as columns', () => {
  it('gives back every point field for field, moving range and EWMA to the last bit', () => {
    fc.assert(
      fc.property(
        fc.array(arbitraryPoint, { maxLength: 60 }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        (input, ewmaLambda) => {
          const stats = verificationStatistics(input, { ewmaLambda });
          const columns = pointsToColumns(stats.points);
          // What the client receives is JSON.
          const sent = ZStatisticsPointColumns.parse(JSON.parse(JSON.stringify(columns)));
          expect(pointsFromColumns(sent, stats)).toEqual(stats.points);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('words the same alerts from the answer as the server does, in the day format given', () => {
    // A day format of the facility's kind: the client passes its own (StatisticsPage).
    const formatDay = (takenAt: string) => `${takenAt.slice(8, 10)}.${takenAt.slice(5, 7)}.`;
    fc.assert(
      fc.property(
        fc.array(arbitraryPoint, { maxLength: 60 }),
        fc.record({
          ewmaLambda: fc.double({ min: 0.01, max: 1, noNaN: true }),
          alertPercent: fc.integer({ min: 1, max: 150 }),
          actionPercent: fc.integer({ min: 1, max: 200 }),
          ppuTarget: fc.constantFrom(0.4, 1.33, 2),
        }),
        (input, settings) => {
          const stats = verificationStatistics(input, settings, formatDay);
          const answer = {
            statistics: statisticsToWire(
              {
                ...stats,
                groupBy: 'equipment',
                key: '1',
                label: 'Mixer',
                invalidatedCount: 0,
                invalidated: [],
              },
              settings,
            ),
          };
          const sent = ZStatisticsResponse.parse(JSON.parse(JSON.stringify(answer)));
          const read = statisticsFromWire(sent.statistics, formatDay);
          expect(read.alerts).toEqual(stats.alerts);
          expect(read.points).toEqual(stats.points);
          expect('alerts' in sent.statistics).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('sends a run of results in a few bytes a point', () => {
    const input: StatisticsPointInput[] = Array.from({ length: 5_000 }, (_, i) => ({
      resultId: 10_000 + i,
      historical: false,
      takenAt: new Date(START + Math.floor(i / 20) * DAY + (i % 20) * 60_000).toISOString(),
      label: `ST-0001 run ${Math.floor(i / 20) + 1} · Location ${(i % 20) + 1}`,
      percentOfLimit: ((i * 7919) % 1000) / 37 + 0.123456789,
      censoredBelow: i % 50 === 0,
      censoredAbove: false,
    }));
    const stats = verificationStatistics(input);
    const objects = JSON.stringify(stats.points).length;
    const columns = JSON.stringify(pointsToColumns(stats.points)).length;
    // Objects: about 260 bytes a point; columns under 40 (issue 34: 5,000 points ≤ 200 kB).
    expect(objects / input.length).toBeGreaterThan(200);
    expect(columns / input.length).toBeLessThan(40);
    // The whole answer, every tenth result above the action level: its alerts are not sent.
    const alerting = verificationStatistics(
      input.map((p, i) => (i % 10 === 0 ? { ...p, percentOfLimit: 90 + (i % 7) } : p)),
    );
    expect(alerting.alerts.length).toBeGreaterThan(500);
    const wire = JSON.stringify(statisticsToWire(alerting, DEFAULT_STATISTICS_SETTINGS));
    expect(wire.length).toBeLessThan(200_000);
  });

  it('refuses a time the columns could not give back', () => {
    const [point] = verificationStatistics([
      {
        resultId: 1,
        historical: false,
        takenAt: '2026-03-01 10:00',
        label: 'R1',
        percentOfLimit: 10,
        censoredBelow: false,
      },
    ]).points;
    expect(() => pointsToColumns([point!])).toThrow(/not an ISO time/);
  });
});
