import { describe, expect, it } from 'vitest';
import { equipmentBars, firstSteps, plural, releaseBars, timesLoq } from './dashboard-tiles.ts';

describe('the dashboard tiles', () => {
  const status = {
    equipmentCount: 9,
    counts: { Validated: 4, 'On Going': 2, Failed: 1, Overdue: 1, 'Not covered': 1 },
    overdue: [],
    openQualificationTasks: 0,
    periodicVerificationDays: 365,
  };

  it('shows each equipment state in order, each linked to the records behind it', () => {
    expect(equipmentBars(status, 7).map((b) => [b.label, b.value, b.to])).toEqual([
      ['Validated', 4, '/studies?outcome=Validated'],
      ['On Going', 2, '/studies?outcome=On+Going'],
      ['Failed', 1, '/studies?outcome=Failed'],
      ['Overdue', 1, '/studies?overdue=true'],
      ['Not covered', 1, '/cleaning-assessments/7'],
    ]);
  });

  it('sends Not covered to the page that starts an assessment before the first one', () => {
    expect(equipmentBars(status, null).at(-1)?.to).toBe('/cleaning-assessments');
  });

  it('names the release flags as the shop floor reads them', () => {
    const bars = releaseBars({
      date: '2026-11-26',
      counts: { CAN_BE_RELEASED: 2, MAY_BE_RELEASED: 0, CAN_NOT_BE_RELEASED: 1 },
      runs: [],
    });
    expect(bars.map((b) => `${b.label}=${b.value}`)).toEqual([
      'Can be released=2',
      'May be released (at risk)=0',
      'Can not be released=1',
    ]);
  });

  it('tells a new facility what to do first, in the order the limits need it', () => {
    const steps = firstSteps({
      actives: 0,
      products: 0,
      equipment: 3,
      productions: 0,
      cleaningAssessments: 0,
    });
    expect(steps.map((s) => s.key)).toEqual(['actives', 'products', 'productions', 'assessment']);
    expect(steps[0]).toMatchObject({ title: 'Add the actives', to: '/master-data/apis' });
  });

  it('leaves out the steps the user cannot read, and nothing once set up', () => {
    expect(
      firstSteps({
        actives: null,
        products: null,
        equipment: null,
        productions: null,
        cleaningAssessments: 0,
      }).map((s) => s.key),
    ).toEqual(['assessment']);
    expect(
      firstSteps({ actives: 1, products: 1, equipment: 1, productions: 1, cleaningAssessments: 1 }),
    ).toEqual([]);
  });

  it('words counts and ratios', () => {
    expect(plural(1, 'record')).toBe('1 record');
    expect(plural(3, 'record')).toBe('3 records');
    expect(timesLoq(1.2500001)).toBe('1.25 × LOQ');
  });
});
