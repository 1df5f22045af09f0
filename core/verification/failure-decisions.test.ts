import { describe, expect, it } from 'vitest';
import {
  unconcludedMessage,
  undecidedFailures,
  undecidedMessage,
  type FailureDecisionState,
} from './failure-decisions.ts';

const VALVE = 1;
const GASKET = 2;
const valveResult = { id: 10, samplingLocationId: VALVE, location: 'Valve' };
const gasketResult = { id: 11, samplingLocationId: GASKET, location: 'Gasket' };
const dev = (d: Partial<FailureDecisionState['deviations'][number]>) => ({
  resultId: null,
  samplingLocationId: null,
  invalidatesRun: false,
  ...d,
});
const state = (s: Partial<FailureDecisionState>): FailureDecisionState => ({
  failedResults: [],
  failedMicrobial: [],
  visualFailed: false,
  deviations: [],
  ...s,
});

describe('undecidedFailures and the refusal of Submit', () => {
  it.each<[string, FailureDecisionState, string | null]>([
    ['nothing failed', state({}), null],
    [
      'a failed result with no deviation',
      state({ failedResults: [gasketResult] }),
      'No decision on the failed result at Gasket: record a deviation for it',
    ],
    [
      'two failed results, none decided',
      state({ failedResults: [valveResult, gasketResult] }),
      'No decision on the failed results at Valve, Gasket: record a deviation for each',
    ],
    [
      'a deviation naming the location decides it',
      state({ failedResults: [gasketResult], deviations: [dev({ samplingLocationId: GASKET })] }),
      null,
    ],
    [
      'a deviation naming the result decides it',
      state({ failedResults: [gasketResult], deviations: [dev({ resultId: 11 })] }),
      null,
    ],
    [
      'a deviation about another location does not',
      state({
        failedResults: [valveResult, gasketResult],
        deviations: [dev({ samplingLocationId: VALVE })],
      }),
      'No decision on the failed result at Gasket: record a deviation for it',
    ],
    [
      'a run-level deviation does not decide a failed result',
      state({ failedResults: [gasketResult], deviations: [dev({})] }),
      'No decision on the failed result at Gasket: record a deviation for it',
    ],
    [
      'a deviation invalidating the run decides every result',
      state({
        failedResults: [valveResult, gasketResult],
        deviations: [dev({ invalidatesRun: true })],
      }),
      null,
    ],
    [
      'a failed microbial result at a location',
      state({ failedMicrobial: [{ samplingLocationId: VALVE, label: 'Valve (Contact plate)' }] }),
      'No decision on the failed result at Valve (Contact plate): record a deviation for it',
    ],
    [
      'a failed final rinse is decided by a deviation of the whole run',
      state({
        failedMicrobial: [{ samplingLocationId: null, label: 'Final rinse (Endotoxin)' }],
        deviations: [dev({})],
      }),
      null,
    ],
    [
      'a failed final rinse is not decided by a deviation of a location',
      state({
        failedMicrobial: [{ samplingLocationId: null, label: 'Final rinse (Endotoxin)' }],
        deviations: [dev({ samplingLocationId: VALVE })],
      }),
      'No decision on the failed result at Final rinse (Endotoxin): record a deviation for it',
    ],
    [
      'a failed visual with no deviation of the run',
      state({ visualFailed: true, deviations: [dev({ samplingLocationId: VALVE })] }),
      'No decision on the failed visual inspection: record a deviation of the run for it',
    ],
    ['a failed visual decided', state({ visualFailed: true, deviations: [dev({})] }), null],
    [
      'a failed result and a failed visual',
      state({ visualFailed: true, failedResults: [gasketResult] }),
      'No decision on the failed result at Gasket: record a deviation for it; No decision on the failed visual inspection: record a deviation of the run for it',
    ],
  ])('%s', (_name, s, message) => {
    expect(undecidedMessage(undecidedFailures(s))).toBe(message);
  });

  it('names a location once however many results failed there', () => {
    const again = { id: 12, samplingLocationId: GASKET, location: 'Gasket' };
    expect(undecidedFailures(state({ failedResults: [gasketResult, again] })).locations).toEqual([
      'Gasket',
    ]);
  });
});

describe('unconcludedMessage: Submit waits for every investigation of the run', () => {
  const inv = (number: string, at: string, concluded: boolean) => ({
    number,
    samplingLocationName: at,
    concluded,
  });
  it.each<[string, ReturnType<typeof inv>[], string | null]>([
    ['no investigation', [], null],
    ['all concluded', [inv('INV-0001', 'Gasket', true)], null],
    [
      'one open',
      [inv('INV-0001', 'Gasket', false), inv('INV-0002', 'Valve', true)],
      'Investigation INV-0001 of the result at Gasket is not concluded: QA approves it before the run is submitted',
    ],
    [
      'two open, in order',
      [inv('INV-0003', 'Final rinse', false), inv('INV-0004', 'Valve (Contact plate)', false)],
      'Investigation INV-0003 of the result at Final rinse is not concluded: QA approves it before the run is submitted; Investigation INV-0004 of the result at Valve (Contact plate) is not concluded: QA approves it before the run is submitted',
    ],
  ])('%s', (_name, investigations, expected) => {
    expect(unconcludedMessage(investigations)).toBe(expected);
  });
});
