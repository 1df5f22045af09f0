import { describe, expect, it } from 'vitest';
import type { TPropertyDefinition } from '../schemas/additional-properties.schemas.ts';
import { applyPropertyValues, valueProblem } from './property-values.ts';

function definition(overrides: Partial<TPropertyDefinition>): TPropertyDefinition {
  return {
    key: 'p',
    label: 'P',
    kind: 'text',
    measure: null,
    options: [],
    required: false,
    helpText: '',
    archived: false,
    archivedAt: null,
    archiveReason: null,
    version: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('valueProblem', () => {
  const cases: [Partial<TPropertyDefinition>, unknown, string | undefined][] = [
    [{ kind: 'text' }, 'ok', undefined],
    [{ kind: 'text' }, 3, 'must be a text'],
    [{ kind: 'number' }, 2.5, undefined],
    [{ kind: 'number' }, '2.5', 'must be a number'],
    [{ kind: 'number' }, Number.NaN, 'must be a number'],
    [{ kind: 'date' }, '2026-02-28', undefined],
    [{ kind: 'date' }, '2026-02-30', 'must be a date as YYYY-MM-DD'],
    [{ kind: 'date' }, '28/02/2026', 'must be a date as YYYY-MM-DD'],
    [{ kind: 'select', options: ['A', 'B'] }, 'B', undefined],
    [{ kind: 'select', options: ['A', 'B'] }, 'C', 'must be one of A, B'],
    [{ kind: 'quantity', measure: 'volume' }, { value: 2, unit: 'L' }, undefined],
    [
      { kind: 'quantity', measure: 'volume' },
      { value: 2, unit: 'mg' },
      'must be one of ml, L (volume)',
    ],
    [{ kind: 'quantity', measure: 'volume' }, { value: -1, unit: 'ml' }, 'must not be negative'],
    [{ kind: 'quantity', measure: 'volume' }, 5, 'must be a quantity with a value and a unit'],
  ];
  it.each(cases)('%o with %o', (overrides, value, expected) => {
    expect(valueProblem(definition(overrides), value)).toBe(expected);
  });
});

describe('applyPropertyValues', () => {
  const defs = [
    definition({ key: 'a', label: 'A', required: true }),
    definition({ key: 'b', label: 'B', kind: 'number' }),
    definition({ key: 'old', label: 'Old', archived: true, required: true }),
  ];

  it('merges an edit over the stored values, clearing with null and keeping archived ones', () => {
    const result = applyPropertyValues(defs, { a: 'x', b: 1, old: 'kept' }, { b: null, a: ' y ' });
    expect(result).toEqual({ values: { a: 'y', old: 'kept' }, problems: [] });
  });

  it('reports unknown keys, changed archived values and missing required ones', () => {
    const { problems } = applyPropertyValues(defs, { old: 'kept' }, { zzz: 1, old: 'new' });
    expect(problems.map((p) => [p.property, Object.keys(p.constraints)[0]])).toEqual([
      ['additionalProperties.zzz', 'unknown'],
      ['additionalProperties.old', 'archived'],
      ['additionalProperties.a', 'required'],
    ]);
  });

  it('treats a blank text as no value', () => {
    const { problems } = applyPropertyValues(defs, {}, { a: '   ' });
    expect(problems).toEqual([
      { property: 'additionalProperties.a', constraints: { required: 'A is required' } },
    ]);
  });
});
