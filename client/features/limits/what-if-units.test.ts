import { describe, expect, it } from 'vitest';
import { unitsOfKind } from '#core/units/units.ts';
import type { TDefaultUnit } from '#core/schemas/settings.schemas.ts';
import { whatIfDefaultUnit } from './what-if-units.ts';

const AMOUNT = [...unitsOfKind('mass'), ...unitsOfKind('volume'), ...unitsOfKind('count')];
const row = (shortName: string, unit: string): TDefaultUnit => ({
  id: 1,
  shortName,
  unit,
  name: shortName,
  allowedUnits: [unit],
});

describe('whatIfDefaultUnit', () => {
  it.each([
    ['minBatchSize', AMOUNT, [row('minBatchSize', 'g')], 'g'],
    ['maxDailyDose', AMOUNT, [row('ldd', 'ug')], 'ug'],
    ['pde', unitsOfKind('mass'), [row('pde', 'ug')], 'ug'],
    ['surfaceArea', unitsOfKind('area'), [row('surfaceArea', 'sqm')], 'sqm'],
  ] as const)('takes the facility default of %s', (quantity, allowed, defaults, expected) => {
    expect(whatIfDefaultUnit(quantity, allowed, defaults)).toBe(expected);
  });

  it('falls back to the measure’s default, never ng for a batch size', () => {
    expect(AMOUNT[0]).toBe('ng');
    expect(whatIfDefaultUnit('minBatchSize', AMOUNT, undefined)).toBe('kg');
    expect(whatIfDefaultUnit('minBatchSize', AMOUNT, [])).toBe('kg');
    expect(whatIfDefaultUnit('maxDailyDose', AMOUNT, undefined)).toBe('mg');
    expect(whatIfDefaultUnit('surfaceArea', unitsOfKind('area'), undefined)).toBe('sqcm');
  });

  it('passes over a facility default the field cannot take', () => {
    expect(whatIfDefaultUnit('pde', unitsOfKind('mass'), [row('pde', 'sqcm')])).toBe('mg');
  });
});
