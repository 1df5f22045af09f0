import { parseLimitsInput } from './contract-input.ts';
import type { WhatIfEdit } from './limits.what-if.ts';
import type { LimitsInput } from './model.ts';

/**
 * A small facility for tests, checkable by hand: Tablet A (PDE 1 ug, 100 kg / 400 mg) and Syrup
 * B (PDE 5 mg, 200 kg / 2,400 mg) on E1 (12 sqm) and E2 (8 sqm); `more` adds products, equipment
 * and trains (and anything else of the contract's input).
 */
export function twoProductFacility(
  more: {
    products?: unknown[];
    equipment?: unknown[];
    trains?: Record<string, string[]>;
    sampling?: unknown;
  } = {},
): LimitsInput {
  const parsed = parseLimitsInput({
    products: [
      {
        id: 'A',
        minBatchSize: { value: 100, unit: 'kg' },
        maxDailyDose: { value: 400, unit: 'mg' },
        actives: [{ id: 'a1', pde: { value: 1, unit: 'ug' } }],
      },
      {
        id: 'B',
        minBatchSize: { value: 200, unit: 'kg' },
        maxDailyDose: { value: 2400, unit: 'mg' },
        actives: [{ id: 'b1', pde: { value: 5, unit: 'mg' } }],
      },
      ...(more.products ?? []),
    ],
    equipment: [
      { id: 'E1', surfaceArea: { value: 12, unit: 'sqm' } },
      { id: 'E2', surfaceArea: { value: 8, unit: 'sqm' } },
      ...(more.equipment ?? []),
    ],
    trains: { A: ['E1', 'E2'], B: ['E2'], ...more.trains },
    ...(more.sampling ? { sampling: more.sampling } : {}),
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.input;
}

/** The what-if edits tests use most: an active's PDE in ug, a product added (kg, mg). */
export const pdeEdit = (active: string, ug: number): WhatIfEdit => ({
  kind: 'pde',
  active,
  value: { value: ug, unit: 'ug' },
});

export const addProductEdit = (
  product: string,
  active: string,
  batchKg: number,
  doseMg: number,
  equipment: string[],
): WhatIfEdit => ({
  kind: 'addProduct',
  product,
  active,
  minBatchSize: { value: batchKg, unit: 'kg' },
  maxDailyDose: { value: doseMg, unit: 'mg' },
  equipment,
});
