import { describe, expect, it } from 'vitest';
import { releaseFlag, runVerdict, type RunState } from './release.ts';
import type { MicrobialRunState } from './release-microbial.ts';

type Level = 'Pass' | 'Alert' | 'Fail';
const result = (
  key: string,
  label: string,
  judgement: Level,
  percent: number | null,
  superseded = false,
) => ({
  key,
  label,
  judgement,
  percentOfLimit: percent,
  superseded,
});

const chemicalDone: RunState = {
  visualResult: 'Pass',
  plannedLocationIds: [1],
  results: [{ samplingLocationId: 1, passed: true, superseded: false }],
  deviations: [],
  dirtyHoldHours: null,
  cleanHoldHours: null,
  dirtyHoldMaxHours: null,
  cleanHoldMaxHours: null,
  allowReleaseAtRisk: false,
};
const planned = [
  { key: '1:contactPlate', label: 'Blender lid (contact plate)' },
  { key: 'rinse:rinse', label: 'Final rinse (rinse)' },
];
const withMicrobial = (microbial: MicrobialRunState): RunState => ({ ...chemicalDone, microbial });

describe('microbial results in the verdict and release flag', () => {
  it('all planned microbial samples passed: releasable, Pass', () => {
    const run = withMicrobial({
      planned,
      results: [
        result('1:contactPlate', 'Blender lid (contact plate)', 'Pass', 8),
        result('rinse:rinse', 'Final rinse (rinse)', 'Pass', 10),
      ],
    });
    expect(runVerdict(run)).toBe('Pass');
    expect(releaseFlag(run)).toEqual({
      flag: 'CAN_BE_RELEASED',
      reasons: ['Visual inspection passed', 'All 1 planned locations passed'],
    });
  });

  it('a microbial failure blocks release, naming the location, and fails the run', () => {
    const run = withMicrobial({
      planned,
      results: [
        result('1:contactPlate', 'Blender lid (contact plate)', 'Fail', 104),
        result('rinse:rinse', 'Final rinse (rinse)', 'Pass', 10),
      ],
    });
    expect(runVerdict(run)).toBe('Fail');
    expect(releaseFlag(run)).toEqual({
      flag: 'CAN_NOT_BE_RELEASED',
      reasons: ['A microbial result failed at Blender lid (contact plate)'],
    });
  });

  it('a failure superseded by a passing retest is not counted', () => {
    const run = withMicrobial({
      planned,
      results: [
        result('1:contactPlate', 'Blender lid (contact plate)', 'Fail', 104, true),
        result('1:contactPlate', 'Blender lid (contact plate)', 'Pass', 20),
        result('rinse:rinse', 'Final rinse (rinse)', 'Pass', 10),
      ],
    });
    expect(runVerdict(run)).toBe('Pass');
    expect(releaseFlag(run).flag).toBe('CAN_BE_RELEASED');
  });

  it('an alert does not block release but is among the reasons', () => {
    const run = withMicrobial({
      planned,
      results: [
        result('1:contactPlate', 'Blender lid (contact plate)', 'Alert', 80),
        result('rinse:rinse', 'Final rinse (rinse)', 'Pass', 10),
      ],
    });
    expect(runVerdict(run)).toBe('Pass');
    expect(releaseFlag(run)).toEqual({
      flag: 'CAN_BE_RELEASED',
      reasons: [
        'Visual inspection passed',
        'All 1 planned locations passed',
        'Microbial alert level reached at Blender lid (contact plate) (80 % of limit)',
      ],
    });
  });

  it('a planned microbial sample without a result is pending', () => {
    const run = withMicrobial({
      planned,
      results: [result('1:contactPlate', 'Blender lid (contact plate)', 'Pass', 8)],
    });
    expect(runVerdict(run)).toBe('Pending');
    expect(releaseFlag(run)).toEqual({
      flag: 'CAN_NOT_BE_RELEASED',
      reasons: [
        'Microbial results pending for Final rinse (rinse)',
        'The protocol does not allow release at risk',
      ],
    });
    expect(releaseFlag({ ...run, allowReleaseAtRisk: true }).flag).toBe('MAY_BE_RELEASED');
  });

  it('an unplanned microbial result still counts when it fails', () => {
    const run = withMicrobial({
      planned: [],
      results: [result('rinse:endotoxin', 'Final rinse (endotoxin)', 'Fail', 120)],
    });
    expect(runVerdict(run)).toBe('Fail');
    expect(releaseFlag(run).reasons).toEqual([
      'A microbial result failed at Final rinse (endotoxin)',
    ]);
  });
});
