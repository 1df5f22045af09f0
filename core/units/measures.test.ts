import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INPUT_KEY_MEASURE, MEASURES, checkMeasure, defaultUnit, isAllowed } from './measures.ts';
import type { MeasureName } from './measures.ts';
import { UnitKindError } from './quantity.ts';
import { UNITS, isUnit } from './units.ts';
import type { Unit } from './units.ts';

const names = Object.keys(MEASURES) as MeasureName[];

describe('measures of spec §3', () => {
  it.each([
    ['surfaceArea', 'sqcm'],
    ['minBatchSize', 'kg'],
    ['l5', 'ppm'],
    ['l3', 'mg/sqcm'],
    ['l4', 'mg'],
    ['pde', 'mg'],
    ['td', 'mg'],
    ['strength', 'mg'],
    ['ld50', 'mg/kg'],
    ['volume', 'ml'],
    ['ldd', 'mg'],
    ['minDailyDose', 'mg'],
    ['tabletWeight', 'mg'],
    ['ai', 'ng'],
  ] as const)('%s defaults to %s', (measure, unit) => {
    expect(defaultUnit(measure)).toBe(unit);
  });

  it('only allows known units and includes the default among them', () => {
    for (const name of names) {
      const m = MEASURES[name];
      for (const u of m.allowed) expect(isUnit(u), `${name}: ${u}`).toBe(true);
      expect(m.allowed as readonly string[]).toContain(m.default);
    }
    for (const measure of Object.values(INPUT_KEY_MEASURE)) expect(names).toContain(measure);
  });

  it('accepts exactly the allowed units of a measure (property-based)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...names),
        fc.constantFrom(...(Object.keys(UNITS) as Unit[])),
        fc.double({ min: 1e-6, max: 1e6, noNaN: true }),
        (measure, unit, value) => {
          if (isAllowed(measure, unit)) {
            expect(checkMeasure(measure, { value, unit })).toEqual({ value, unit });
          } else {
            expect(() => checkMeasure(measure, { value, unit })).toThrow(UnitKindError);
          }
        },
      ),
    );
  });

  it('refuses a surface area in kg and a PDE in ppm', () => {
    expect(() => checkMeasure('surfaceArea', { value: 2, unit: 'kg' })).toThrow(/expected area/);
    expect(() => checkMeasure('pde', { value: 2, unit: 'ppm' })).toThrow(UnitKindError);
  });
});
