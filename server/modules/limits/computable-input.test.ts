import { describe, expect, it } from 'vitest';
import type { LimitsInput } from '#core/limits/model.ts';
import { computable } from './computable-input.ts';

/** Issue 15: why a product or an item of equipment is left out reads as words, not paths. */
function input(): LimitsInput {
  return {
    policy: { useLd50: true, areaBasis: 'shared' },
    products: [
      {
        id: 'Aspirin 100 mg',
        minBatchSize: { value: 100 },
        maxDailyDose: { value: 400, unit: 'mg' },
        actives: [{ id: 'Acetylsalicylic acid', pde: { value: 1, unit: 'ug' } }],
      },
      {
        id: 'Ibuprofen, 200 mg',
        minBatchSize: { value: 100, unit: 'kg' },
        maxDailyDose: { value: 400, unit: 'mg' },
        actives: [{ id: 'Ibuprofen', pde: { value: 1, unit: 'm' } }],
      },
      {
        id: 'Aspirin 300 mg',
        minBatchSize: { value: 100, unit: 'kg' },
        maxDailyDose: { value: 900, unit: 'mg' },
        actives: [{ id: 'Acetylsalicylic acid', pde: { value: 2, unit: 'ug' } }],
      },
    ],
    equipment: [{ id: 'Old tank', surfaceArea: { value: 2, unit: 'sqft' } }],
    trains: { 'Aspirin 100 mg': ['Old tank'] },
    sampling: { swabArea: { value: 25, unit: 'sqcm' }, rinseVolume: { value: 1, unit: 'L' } },
  } as unknown as LimitsInput;
}

describe('what the limits leave out, and why', () => {
  it('names the field, and the active by its name, never the engine path', () => {
    const { uncomputable } = computable(input());
    expect(uncomputable.map((u) => [u.kind, u.id])).toEqual([
      ['product', 'Aspirin 100 mg'],
      ['product', 'Ibuprofen, 200 mg'],
      ['product', 'Aspirin 300 mg'],
      ['equipment', 'Old tank'],
    ]);
    const [aspirin, ibuprofen, twin, tank] = uncomputable.map((u) => u.reason);
    expect(aspirin).toMatch(/^unit of minimum batch size: a unit is required/);
    expect(ibuprofen).toMatch(/^active ‘Ibuprofen’, unit of PDE: unknown unit "m"/);
    expect(tank).toMatch(/^unit of surface area: sqft is a unit of /);
    // The message's own path to the other active reads as words too.
    expect(twin).toContain('is also at product ‘Aspirin 100 mg’, active ‘Acetylsalicylic acid’');
    for (const reason of [aspirin, ibuprofen, twin, tank])
      expect(reason).not.toMatch(/products|equipment\[|minBatchSize|\.unit|\[\d+\]/);
  });
});
