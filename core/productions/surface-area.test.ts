import { describe, expect, it } from 'vitest';
import { totalSurfaceArea, type AreaItem } from './surface-area.ts';

const item = (id: number, value: number | null, unit = 'sqcm'): AreaItem => ({
  id,
  name: `E${id}`,
  surfaceArea: value === null ? null : { value, unit },
});

describe('totalSurfaceArea', () => {
  it.each([
    { items: [item(1, 0.1), item(2, 0.2)], unit: 'sqcm', total: 0.3 },
    {
      items: [item(1, 120), item(2, 10, 'sqin'), item(3, 1.5, 'sqm')],
      unit: 'sqcm',
      total: 15184.516,
    },
    { items: [item(1, 6.4516), item(2, 1, 'sqin')], unit: 'sqin', total: 2 },
    { items: [item(1, 2500), item(2, 0.25, 'sqm')], unit: 'sqm', total: 0.5 },
    { items: [item(1, 1e-7, 'sqm')], unit: 'sqcm', total: 0.001 },
  ])('sums $items.length items into $unit exactly ($total)', ({ items, unit, total }) => {
    const result = totalSurfaceArea(items, unit);
    expect(result.total).toEqual({ value: total, unit });
    expect(result.isComplete).toBe(true);
  });

  it('never reports a silent 0: missing areas and empty productions are incomplete', () => {
    const gap = totalSurfaceArea([item(1, 5), item(2, null), item(3, 7, 'kg')], 'sqcm');
    expect(gap).toMatchObject({ total: { value: 5 }, isComplete: false, missing: ['E2', 'E3'] });
    expect(totalSurfaceArea([], 'sqcm').isComplete).toBe(false);
  });

  it('lists archived equipment without counting it', () => {
    const result = totalSurfaceArea([item(1, 5), { ...item(2, 9), isArchived: true }], 'sqcm');
    expect(result.total.value).toBe(5);
    expect(result.isComplete).toBe(true);
    expect(result.lines.map((l) => l.status)).toEqual(['counted', 'archived']);
  });

  it('refuses a target unit that is no area', () => {
    expect(() => totalSurfaceArea([], 'mg')).toThrow('no unit of area');
  });
});
