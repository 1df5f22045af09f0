import { describe, expect, it } from 'vitest';
import { compileLimits } from './compile.ts';
import { limitsReport, governingPairs } from './limit-reports.ts';
import { runMatrix } from './matrix.ts';
import type { LimitsInput } from './model.ts';
import { defaultPolicy } from './policy.ts';
import { equipmentWiseLimits } from './worst-case.ts';

const product = (id: string, pdeMg: number, mbsKg: number, mddMg: number) => ({
  id,
  minBatchSize: { value: mbsKg, unit: 'kg' as const },
  maxDailyDose: { value: mddMg, unit: 'mg' as const },
  actives: [{ id: `${id} API`, pde: { value: pdeMg, unit: 'mg' as const } }],
});

const input: LimitsInput = {
  policy: defaultPolicy(),
  products: [product('A', 0.1, 50, 200), product('B', 0.001, 100, 400), product('C', 5, 20, 1000)],
  equipment: [
    { id: 'E1', surfaceArea: { value: 125_000, unit: 'sqcm' } },
    { id: 'E2', surfaceArea: { value: 5_000, unit: 'sqcm' } },
    { id: 'E3', surfaceArea: { value: 20_000, unit: 'sqcm' } },
  ],
  trains: { A: ['E1', 'E2', 'E3'], B: ['E1', 'E2'], C: ['E3'] },
  sampling: { swabArea: { value: 25, unit: 'sqcm' }, rinseVolume: { value: 1, unit: 'L' } },
};

describe('limitsReport', () => {
  const m = compileLimits(input);
  const report = limitsReport(m);

  it('agrees with the matrix summary on each item’s lowest SAL and governing pair', () => {
    const wise = equipmentWiseLimits(m, runMatrix(m));
    expect(report.equipment.map((e) => [e.id, e.sal.value, e.sal.pair])).toEqual(
      wise.map((w) => [w.id, w.lowestSal, w.governingPair]),
    );
  });

  it('takes each lowest limit from the pairs sharing the item', () => {
    const pairs: { shared: string[]; values: number[]; pair: string; sal: number }[] = [];
    runMatrix(m, (v) =>
      pairs.push({
        pair: `${input.products[v.previous]!.id}${input.products[v.next]!.id}`,
        shared: Array.from(v.shared.slice(0, v.sharedCount), (e) => input.equipment[e]!.id),
        values: [v.maco, v.sal, v.swabLimit, v.rinseLimit],
        sal: v.sal,
      }),
    );
    const itemArea = (id: string) => input.equipment.find((e) => e.id === id)!.surfaceArea.value;
    expect(report.overall.pairCount).toBe(pairs.length);
    for (const item of report.equipment) {
      const sharing = pairs.filter((p) => p.shared.includes(item.id));
      const lowest = [0, 1, 2].map((k) => Math.min(...sharing.map((p) => p.values[k]!)));
      expect([item.maco.value, item.sal.value, item.swab.value]).toEqual(lowest);
      // The item rinsed on its own: SAL × its own area / 1000 ml, not the whole shared area.
      const rinse = Math.min(...sharing.map((p) => (p.sal * itemArea(item.id)) / 1000));
      expect(item.rinse.value).toBeCloseTo(rinse, 15);
      expect(item.pairCount).toBe(sharing.length);
    }
    // B → A on E1 and E2: 0.001 mg × 50 kg / 200 mg = 250 mg over 130,000 sqcm; E1 (125,000
    // sqcm) rinsed in 1 L carries 250 × 125/130 mg: 0.2404 mg/ml, not the train's 0.25.
    const e1 = report.equipment.find((e) => e.id === 'E1')!;
    expect(e1.maco).toEqual({ value: 250, pair: ['B', 'A'] });
    expect(e1.rinse.value).toBeCloseTo((250 * 125_000) / 130_000 / 1000, 12);
    expect(report.overall.rinse.value).toBe(Math.min(...pairs.map((p) => p.values[3]!)));
  });

  it('lists each governing pair once', () => {
    const keys = governingPairs(report.equipment).map((p) => p.join('→'));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toContain('B→A');
  });
});
