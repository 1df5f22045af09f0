import { describe, expect, it } from 'vitest';
import { holdMaxima, releaseFlag, runVerdict } from './release.ts';
import type { RunState } from './release.ts';

const pass = (samplingLocationId: number, superseded = false) => ({
  samplingLocationId,
  passed: true,
  superseded,
});
const fail = (samplingLocationId: number, superseded = false) => ({
  samplingLocationId,
  passed: false,
  superseded,
});

const complete: RunState = {
  visualResult: 'Pass',
  plannedLocationIds: [1, 2, 3],
  // Reasons name the places (issue 30).
  locationNames: { 1: 'Lid', 2: 'Valve', 3: 'Outlet' },
  results: [pass(1), pass(2), pass(3)],
  deviations: [],
  dirtyHoldHours: 20,
  cleanHoldHours: 48,
  dirtyHoldMaxHours: 24,
  cleanHoldMaxHours: 72,
  allowReleaseAtRisk: false,
};

describe('runVerdict', () => {
  it.each<[string, Partial<RunState>, string]>([
    ['every planned location passed, visual passed', {}, 'Pass'],
    ['a counted result failed', { results: [pass(1), fail(2), pass(3)] }, 'Fail'],
    ['visual failed', { visualResult: 'Fail' }, 'Fail'],
    [
      'a failed result superseded by a passing retest is not counted',
      { results: [pass(1), fail(2, true), pass(2), pass(3)] },
      'Pass',
    ],
    ['a location without a result', { results: [pass(1), pass(2)] }, 'Pending'],
    ['visual not recorded', { visualResult: null }, 'Pending'],
    [
      'visual not recorded and not required by the inspection settings',
      { visualResult: null, visualRequired: false },
      'Pass',
    ],
    [
      'visual failed though not required: a failed inspection stands',
      { visualResult: 'Fail', visualRequired: false },
      'Fail',
    ],
    [
      'a result without a limit is not passing',
      { results: [pass(1), pass(2), { samplingLocationId: 3, passed: null, superseded: false }] },
      'Pending',
    ],
    [
      'a non-process deviation that invalidates the run',
      { deviations: [{ status: 'Closed', kind: 'nonProcess', invalidatesRun: true }] },
      'Invalidated',
    ],
    [
      'an open non-process deviation does not invalidate before QA approves its closure',
      {
        results: [pass(1), fail(2), pass(3)],
        deviations: [{ status: 'Open', kind: 'nonProcess', invalidatesRun: true }],
      },
      'Fail',
    ],
    [
      'a process deviation does not invalidate',
      { deviations: [{ status: 'Closed', kind: 'process', invalidatesRun: true }] },
      'Pass',
    ],
  ])('%s', (_name, change, verdict) => {
    expect(runVerdict({ ...complete, ...change })).toBe(verdict);
  });
});

describe('releaseFlag', () => {
  it.each<[string, Partial<RunState>, string, string[]]>([
    [
      'complete and passing',
      {},
      'CAN_BE_RELEASED',
      ['Visual inspection passed', 'All 3 planned locations passed'],
    ],
    [
      'a failed result',
      { results: [pass(1), fail(2), pass(3)] },
      'CAN_NOT_BE_RELEASED',
      ['A result failed at location Valve'],
    ],
    [
      'failed visual and an open deviation together',
      {
        visualResult: 'Fail',
        deviations: [{ status: 'Open', kind: 'process', invalidatesRun: false }],
      },
      'CAN_NOT_BE_RELEASED',
      ['Visual inspection failed', '1 open deviation'],
    ],
    [
      // dirty 30 h > 24 h; clean 72 h is at the maximum, not above
      'a dirty hold breach',
      { dirtyHoldHours: 30, cleanHoldHours: 72 },
      'CAN_NOT_BE_RELEASED',
      ["Dirty hold time 30 h exceeds the protocol's maximum of 24 h"],
    ],
    [
      'a clean hold breach',
      { cleanHoldHours: 80 },
      'CAN_NOT_BE_RELEASED',
      ["Clean hold time 80 h exceeds the protocol's maximum of 72 h"],
    ],
    [
      'no maximum set: no breach',
      { dirtyHoldHours: 500, dirtyHoldMaxHours: null },
      'CAN_BE_RELEASED',
      ['Visual inspection passed', 'All 3 planned locations passed'],
    ],
    [
      // 1 of 3 planned locations has no result yet
      'pending results, release at risk allowed',
      { results: [pass(1), pass(2)], allowReleaseAtRisk: true },
      'MAY_BE_RELEASED',
      [
        'Visual inspection passed and no result failed',
        'Results pending for 1 of 3 planned locations (Outlet)',
        'The protocol allows release at risk',
      ],
    ],
    [
      'pending results, release at risk not allowed',
      { results: [pass(1)] },
      'CAN_NOT_BE_RELEASED',
      [
        'Results pending for 2 of 3 planned locations (Valve, Outlet)',
        'The protocol does not allow release at risk',
      ],
    ],
    [
      // the deviation is closed, yet the run's results prove nothing
      'a run invalidated by a laboratory deviation',
      { deviations: [{ status: 'Closed', kind: 'nonProcess', invalidatesRun: true }] },
      'CAN_NOT_BE_RELEASED',
      ['Invalidated by a laboratory deviation: a repeat run is needed'],
    ],
    [
      'visual not recorded',
      { visualResult: null, allowReleaseAtRisk: true },
      'CAN_NOT_BE_RELEASED',
      ['Visual inspection not recorded'],
    ],
    [
      'visual not recorded, not required by the inspection settings',
      { visualResult: null, visualRequired: false },
      'CAN_BE_RELEASED',
      [
        'Visual inspection not required by the cleaning inspection settings',
        'All 3 planned locations passed',
      ],
    ],
    [
      'visual not required, results pending, release at risk allowed',
      { visualResult: null, visualRequired: false, results: [pass(1)], allowReleaseAtRisk: true },
      'MAY_BE_RELEASED',
      [
        'Visual inspection not required by the cleaning inspection settings and no result failed',
        'Results pending for 2 of 3 planned locations (Valve, Outlet)',
        'The protocol allows release at risk',
      ],
    ],
    [
      "no protocol maximum: the inspection settings' dirty hold maximum applies",
      { dirtyHoldHours: 30, dirtyHoldMaxHours: null, settingsDirtyHoldMaxHours: 24 },
      'CAN_NOT_BE_RELEASED',
      [
        "Dirty hold time 30 h exceeds the cleaning inspection settings' maximum (the protocol sets none) of 24 h",
      ],
    ],
    [
      "no protocol maximum: the inspection settings' clean hold maximum applies",
      { cleanHoldHours: 50, cleanHoldMaxHours: null, settingsCleanHoldMaxHours: 48 },
      'CAN_NOT_BE_RELEASED',
      [
        "Clean hold time 50 h exceeds the cleaning inspection settings' maximum (the protocol sets none) of 48 h",
      ],
    ],
    [
      // the protocol's 24 h governs even where the settings allow more
      'the protocol maximum wins over the inspection settings',
      { dirtyHoldHours: 30, settingsDirtyHoldMaxHours: 48 },
      'CAN_NOT_BE_RELEASED',
      ["Dirty hold time 30 h exceeds the protocol's maximum of 24 h"],
    ],
    [
      'a superseded failure replaced by a passing re-swab',
      { results: [pass(1), fail(2, true), pass(2), pass(3)] },
      'CAN_BE_RELEASED',
      ['Visual inspection passed', 'All 3 planned locations passed'],
    ],
  ])('%s', (_name, change, flag, reasons) => {
    expect(releaseFlag({ ...complete, ...change })).toEqual({ flag, reasons });
  });
});

describe('holdMaxima', () => {
  it.each<[string, Partial<RunState>, ReturnType<typeof holdMaxima>]>([
    [
      'the protocol sets both',
      { settingsDirtyHoldMaxHours: 12, settingsCleanHoldMaxHours: 12 },
      { dirty: { hours: 24, source: 'protocol' }, clean: { hours: 72, source: 'protocol' } },
    ],
    [
      'the protocol sets none: the settings',
      {
        dirtyHoldMaxHours: null,
        cleanHoldMaxHours: null,
        settingsDirtyHoldMaxHours: 12,
        settingsCleanHoldMaxHours: 96,
      },
      {
        dirty: { hours: 12, source: 'inspection settings' },
        clean: { hours: 96, source: 'inspection settings' },
      },
    ],
    [
      'neither sets one',
      { dirtyHoldMaxHours: null, cleanHoldMaxHours: null, settingsDirtyHoldMaxHours: null },
      { dirty: null, clean: null },
    ],
  ])('%s', (_name, change, maxima) => {
    expect(holdMaxima({ ...complete, ...change })).toEqual(maxima);
  });
});
