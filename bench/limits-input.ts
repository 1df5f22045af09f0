/**
 * A deterministic synthetic facility for the limits benchmarks: products with one to three
 * actives in mixed units and bases (mass, volume, dosage units), equipment items with areas in
 * sqcm, sqin and sqm, and trains of 5–30 items. The same seed gives the same input.
 */

/** A seeded random number generator: the same seed gives the same numbers. */
export function rng(seed: number): () => number {
  // mulberry32: small, fast and good enough to spread synthetic values
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function syntheticLimitsInput(productCount: number, equipmentCount: number, seed = 42) {
  const random = rng(seed);
  const between = (lo: number, hi: number) => lo + (hi - lo) * random();
  const int = (lo: number, hi: number) => Math.floor(between(lo, hi + 1));
  const equipment = Array.from({ length: equipmentCount }, (_, e) => {
    const r = random();
    const surfaceArea =
      r < 0.4
        ? { value: between(5_000, 250_000), unit: 'sqcm' }
        : r < 0.7
          ? { value: between(1_000, 30_000), unit: 'sqin' }
          : { value: between(0.5, 25), unit: 'sqm' };
    return { id: `EQ-${e + 1}`, surfaceArea };
  });
  let activeNumber = 0;
  const products = Array.from({ length: productCount }, (_, p) => {
    const basis = random();
    const amounts =
      basis < 0.6
        ? {
            minBatchSize: { value: between(20, 800), unit: 'kg' },
            maxDailyDose: { value: between(50, 4_000), unit: 'mg' },
          }
        : basis < 0.8
          ? {
              minBatchSize: { value: between(100, 5_000), unit: 'L' },
              maxDailyDose: { value: between(5, 60), unit: 'ml' },
            }
          : {
              minBatchSize: { value: int(50_000, 2_000_000), unit: 'units' },
              maxDailyDose: { value: int(1, 12), unit: 'units' },
              unitWeight: { value: between(100, 1_000), unit: 'mg' },
            };
    const actives = Array.from({ length: int(1, 3) }, () => ({
      id: `API-${++activeNumber}`,
      pde: { value: between(0.1, 5_000), unit: 'ug' },
      therapeuticDose: { value: between(0.5, 800), unit: 'mg' },
      ld50: { value: between(10, 5_000), unit: 'mg/kg' },
    }));
    return { id: `PRD-${p + 1}`, ...amounts, actives };
  });
  const trains: Record<string, string[]> = {};
  for (const product of products) {
    const size = int(5, 30);
    const items = new Set<string>();
    while (items.size < size) items.add(`EQ-${int(1, equipmentCount)}`);
    trains[product.id] = [...items];
  }
  return {
    policy: { useLd50: true, useGlobalRecoveryPercentage: true, globalRecoveryPercentage: 80 },
    products,
    equipment,
    trains,
    sampling: { swabArea: { value: 25, unit: 'sqcm' }, rinseVolume: { value: 20, unit: 'L' } },
  };
}
