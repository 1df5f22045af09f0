import fc from 'fast-check';
import type { LimitsInput } from './model.ts';

/*
 * Random facilities for the engine's property tests: two to four products, each with one active
 * (PDE, dose and LD50 each perhaps recorded), on one to three items of equipment.
 */

export const positive = (min: number, max: number) => fc.double({ min, max, noNaN: true });

export const facilityShapeArb = fc.record({
  products: fc.array(
    fc.record({
      mbsKg: positive(0.1, 5000),
      mddMg: positive(1, 5000),
      pdeMg: fc.option(positive(1e-6, 100), { nil: undefined }),
      doseMg: fc.option(positive(0.01, 1000), { nil: undefined }),
      ld50: fc.option(positive(1, 5000), { nil: undefined }),
    }),
    { minLength: 2, maxLength: 4 },
  ),
  areas: fc.array(positive(10, 1e6), { minLength: 1, maxLength: 3 }),
  trainBits: fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 4, maxLength: 4 }),
});

/** The value an arbitrary generates. */
export type Generated<A> = A extends fc.Arbitrary<infer T> ? T : never;

/** A shape's products, equipment and trains (every product on at least one item). */
export function facilityOf(
  r: Generated<typeof facilityShapeArb>,
): Pick<LimitsInput, 'products' | 'equipment' | 'trains'> {
  const equipment = r.areas.map((a, i) => ({
    id: `E${i}`,
    surfaceArea: { value: a, unit: 'sqcm' as const },
  }));
  const products = r.products.map((p, i) => ({
    id: `P${i}`,
    minBatchSize: { value: p.mbsKg, unit: 'kg' as const },
    maxDailyDose: { value: p.mddMg, unit: 'mg' as const },
    actives: [
      {
        id: `A${i}`,
        ...(p.pdeMg === undefined ? {} : { pde: { value: p.pdeMg, unit: 'mg' as const } }),
        ...(p.doseMg === undefined
          ? {}
          : { therapeuticDose: { value: p.doseMg, unit: 'mg' as const } }),
        ...(p.ld50 === undefined ? {} : { ld50: { value: p.ld50, unit: 'mg/kg' as const } }),
      },
    ],
  }));
  const trains: Record<string, string[]> = {};
  products.forEach((p, i) => {
    const bits = r.trainBits[i] ?? 1;
    trains[p.id] = equipment.filter((_e, k) => bits & (1 << k)).map((e) => e.id);
    if (trains[p.id]!.length === 0) trains[p.id] = [equipment[0]!.id];
  });
  return { products, equipment, trains };
}
