import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  UnitKindError,
  add,
  assertKind,
  compare,
  convert,
  convertValue,
  conversionFactor,
  toBase,
  valueIn,
} from './quantity.ts';
import { BASE_UNIT, UNITS, UNIT_KINDS, isUnit, kindOf, unitsOfKind } from './units.ts';
import type { Unit } from './units.ts';

const allUnits = Object.keys(UNITS) as Unit[];
const unitArb = fc.constantFrom(...allUnits);
const valueArb = fc.double({ min: 1e-12, max: 1e12, noNaN: true, noDefaultInfinity: true });

describe('unit catalogue', () => {
  it.each([
    // [value, from, to, expected] — exact definitions from the reference (§0)
    [1, 'sqin', 'sqcm', 6.4516],
    [1, 'sqft', 'sqcm', 929.0304],
    [1, 'sqm', 'sqcm', 10_000],
    [1, 'sqdm', 'sqcm', 100],
    [9300, 'sqin', 'sqcm', 59_999.88],
    [59.64, 'sqm', 'sqcm', 596_400],
    [1, 'kg', 'mg', 1_000_000],
    [50, 'ug', 'mg', 0.05],
    [18, 'ng', 'mg', 0.000018],
    [2.8, 'g/kg', 'mg/kg', 2800],
    [10, 'L', 'ml', 10_000],
    [25, 'ug/sqin', 'mg/sqcm', 0.025 / 6.4516],
    [225.4, 'ug/sqft', 'ug/sqcm', 225.4 / 929.0304],
    [333.333, 'ug/sqdm', 'ug/sqcm', 3.33333],
    [3, 'mg/L', 'ug/ml', 3],
    [80, 'percent', 'fraction', 0.8],
    [10, 'ppm', '%', 0.001],
    [2, 'weeks', 'days', 14],
    [1.5, 'years', 'months', 18],
  ] as const)('%d %s is %d %s', (value, from, to, expected) => {
    expect(convertValue(value, from, to)).toBeCloseTo(expected, 10);
    expect(convertValue(value, from, to) / expected).toBeCloseTo(1, 12);
  });

  it('has every unit the specification and the contract name', () => {
    const named = [
      ...['ng', 'ug', 'mg', 'g', 'kg', 'sqcm', 'sqin', 'sqm', 'ml', 'L', 'units', 'ppm', 'mg/kg'],
      ...['mg/sqcm', 'ug/sqcm', 'mg/sqin', 'ug/sqin', 'mg/sqm', 'ug/sqm'],
      ...['mg/swab', 'ug/swab', 'mg/rinse', 'ug/rinse', 'mg/ml', 'ug/ml'],
    ];
    for (const u of named) expect(isUnit(u), u).toBe(true);
  });

  it('gives every kind a base unit of that kind', () => {
    for (const kind of UNIT_KINDS) {
      expect(kindOf(BASE_UNIT[kind])).toBe(kind);
      expect(unitsOfKind(kind)).toContain(BASE_UNIT[kind]);
    }
  });

  it('refuses to turn months into days, which is not an exact conversion', () => {
    expect(() => convertValue(1, 'month', 'days')).toThrow(UnitKindError);
  });

  it('converts ug to mg by an exact division, not a rounded multiplication', () => {
    expect(convertValue(50, 'ug', 'mg')).toBe(50 / 1000);
    expect(convertValue(0.3, 'ng', 'mg')).toBe(0.3 / 1_000_000);
  });
});

describe('conversions (property-based)', () => {
  it('round-trips every value between any two units of one kind', () => {
    fc.assert(
      fc.property(unitArb, unitArb, valueArb, (a, b, value) => {
        fc.pre(UNITS[a].kind === UNITS[b].kind);
        const back = convertValue(convertValue(value, a, b), b, a);
        expect(Math.abs(back - value) / value).toBeLessThan(1e-14);
      }),
    );
  });

  it('goes through the base unit consistently (a → b equals a → base → b)', () => {
    fc.assert(
      fc.property(unitArb, unitArb, valueArb, (a, b, value) => {
        fc.pre(UNITS[a].kind === UNITS[b].kind);
        const base = BASE_UNIT[UNITS[a].kind];
        const direct = convertValue(value, a, b);
        const viaBase = convertValue(convertValue(value, a, base), base, b);
        expect(Math.abs(direct - viaBase) / direct).toBeLessThan(1e-14);
      }),
    );
  });

  it('is linear: converting a sum equals summing the conversions', () => {
    fc.assert(
      fc.property(unitArb, unitArb, valueArb, valueArb, (a, b, x, y) => {
        fc.pre(UNITS[a].kind === UNITS[b].kind);
        const sum = convertValue(x + y, a, b);
        const parts = convertValue(x, a, b) + convertValue(y, a, b);
        expect(Math.abs(sum - parts) / sum).toBeLessThan(1e-13);
      }),
    );
  });

  it('preserves order within a kind', () => {
    fc.assert(
      fc.property(unitArb, unitArb, valueArb, valueArb, (a, b, x, y) => {
        fc.pre(UNITS[a].kind === UNITS[b].kind && x < y);
        expect(convertValue(x, a, b)).toBeLessThanOrEqual(convertValue(y, a, b));
      }),
    );
  });

  it('rejects every conversion between units of different kinds', () => {
    fc.assert(
      fc.property(unitArb, unitArb, valueArb, (a, b, value) => {
        fc.pre(UNITS[a].kind !== UNITS[b].kind);
        expect(() => convertValue(value, a, b)).toThrow(UnitKindError);
        expect(() => conversionFactor(a, b)).toThrow(UnitKindError);
        expect(() => add({ value, unit: a }, { value, unit: b })).toThrow(UnitKindError);
        expect(() => compare({ value, unit: a }, { value, unit: b })).toThrow(UnitKindError);
        expect(() => toBase({ value, unit: a }, UNITS[b].kind)).toThrow(UnitKindError);
      }),
    );
  });

  it('rejects unknown unit names', () => {
    fc.assert(
      fc.property(fc.string(), valueArb, (name, value) => {
        fc.pre(!isUnit(name));
        expect(() => assertKind(name, 'mass')).toThrow(UnitKindError);
        expect(() => toBase({ value, unit: name }, 'area')).toThrow(UnitKindError);
      }),
    );
  });
});

describe('quantities', () => {
  it('adds areas in mixed units into the unit of the first', () => {
    const total = add(
      { value: 1, unit: 'sqcm' },
      { value: 1, unit: 'sqin' },
      { value: 1, unit: 'sqm' },
    );
    expect(total.unit).toBe('sqcm');
    expect(total.value).toBeCloseTo(10_007.4516, 9);
  });

  it('converts quantities and reads them in a named unit', () => {
    expect(convert({ value: 4, unit: 'sqin' }, 'sqcm')).toEqual({ value: 25.8064, unit: 'sqcm' });
    expect(valueIn({ value: 2, unit: 'mg' }, 'mass', 'ug')).toBe(2000);
    expect(compare({ value: 1, unit: 'g' }, { value: 999, unit: 'mg' })).toBeGreaterThan(0);
  });

  it('names the expected kind when it refuses a quantity', () => {
    expect(() => toBase({ value: 2, unit: 'kg' }, 'area')).toThrow(/kg is a mass, expected area/);
    expect(() => toBase({ value: 2, unit: 'stone' }, 'mass')).toThrow(/unknown unit "stone"/);
  });
});
