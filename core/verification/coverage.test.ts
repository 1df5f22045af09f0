import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { latestStudyOf, studyScope, validationState } from './coverage.ts';

const lookups = {
  trainEquipment: (id: number) => ({ 10: [1, 2, 3], 11: [4] })[id] ?? [],
  equipmentTrainItems: (id: number) => ({ 20: [3, 5] })[id] ?? [],
  locationEquipment: (id: number) => ({ 100: 2, 101: 7 })[id],
};

describe('studyScope', () => {
  it.each([
    ['the listed equipment', { productionId: 10, equipmentIds: [3, 1] }, [1, 3]],
    [
      'the train’s equipment when none is listed',
      { productionId: 10, equipmentIds: [] },
      [1, 2, 3],
    ],
    ['the train’s equipment when the field is absent', { productionId: 11 }, [4]],
    [
      'plus the sampled items',
      { productionId: 11, samplingPlan: [{ samplingLocationId: 101 }] },
      [4, 7],
    ],
    [
      'listed and sampled, each once',
      { equipmentIds: [2], samplingPlan: [{ samplingLocationId: 100 }] },
      [2],
    ],
    [
      'the equipment train’s items before the production’s when none is listed',
      { productionId: 10, trainId: 20 },
      [3, 5],
    ],
    ['the listed equipment before the equipment train’s', { trainId: 20, equipmentIds: [5] }, [5]],
    ['nothing without a train, a list or a plan', {}, []],
    [
      'an unknown train or location adds nothing',
      { productionId: 99, samplingPlan: [{ samplingLocationId: 999 }] },
      [],
    ],
  ])('covers %s', (_case, protocol, expected) => {
    expect(studyScope(protocol, lookups).equipmentIds).toEqual(expected);
  });

  it('keeps the production and the products once each', () => {
    expect(studyScope({ productionId: 10, productIds: [5, 5, 6] }, lookups)).toEqual({
      productionId: 10,
      productIds: [5, 6],
      equipmentIds: [1, 2, 3],
    });
  });
});

describe('latestStudyOf and validationState', () => {
  const now = new Date('2026-12-05T00:00:00Z');
  const study = (
    id: number,
    outcome: 'Validated' | 'Failed' | 'On Going',
    at: string,
    equipmentIds: number[],
  ) => ({
    id,
    outcome,
    at,
    equipmentIds,
    productionId: null,
    productIds: [],
  });
  const studies = [
    study(1, 'Validated', '2025-01-01T00:00:00Z', [1, 2]),
    study(2, 'Failed', '2026-12-01T00:00:00Z', [2]),
    study(3, 'Validated', '2026-06-01T00:00:00Z', [3]),
  ];

  it.each([
    [1, 'Overdue'],
    [2, 'Failed'],
    [3, 'Validated'],
    [4, 'Not covered'],
  ] as const)('item %i is %s', (item, state) => {
    const latest = latestStudyOf([1, 2, 3, 4], studies);
    expect(validationState(latest.get(item) ?? null, now, 365)).toBe(state);
  });

  it('is Validated up to the day the periodic verification falls due', () => {
    expect(validationState({ outcome: 'Validated', at: '2025-12-05T00:00:00Z' }, now, 365)).toBe(
      'Validated',
    );
    expect(validationState({ outcome: 'Validated', at: '2025-12-04T23:59:59Z' }, now, 365)).toBe(
      'Overdue',
    );
  });
});

describe('studyScope with an equipment train (property)', () => {
  const ids = fc.uniqueArray(fc.integer({ min: 1, max: 50 }), { maxLength: 6 });
  it('covers the listed items, else the train’s, else the production’s, plus every sampled item', () => {
    fc.assert(
      fc.property(
        ids,
        ids,
        ids,
        ids,
        fc.boolean(),
        (listed, trainItems, lineItems, sampled, named) => {
          const scope = studyScope(
            {
              productionId: 1,
              trainId: named ? 2 : null,
              equipmentIds: listed,
              samplingPlan: sampled.map((item) => ({ samplingLocationId: 1000 + item })),
            },
            {
              trainEquipment: (id) => (id === 1 ? lineItems : []),
              equipmentTrainItems: (id) => (id === 2 ? trainItems : []),
              locationEquipment: (location) => location - 1000,
            },
          );
          const base = listed.length > 0 ? listed : named ? trainItems : lineItems;
          const expected = [...new Set([...base, ...sampled])].sort((a, b) => a - b);
          expect(scope.equipmentIds).toEqual(expected);
        },
      ),
    );
  });
});
