import { describe, expect, it } from 'vitest';
import { productionsDef, productsDef } from '#core/entities/defs/index.ts';
import type { FieldDef } from '#core/entities/field.ts';
import { formatFieldValue, formatQuantity } from './format-value.ts';

const field = (def: { fields: readonly FieldDef[] }, name: string): FieldDef => {
  const found = def.fields.find((f) => f.name === name);
  if (!found) throw new Error(name);
  return found;
};
const names = (entity: string, id: number) => `${entity}#${id}`;

describe('formatQuantity', () => {
  it('shows value and unit', () => {
    expect(formatQuantity({ value: 12.5, unit: 'sqm' })).toBe('12.5 m²');
    expect(formatQuantity({ value: 0.000396825, unit: 'mg/sqcm' })).toBe('0.0003968 mg/cm²');
    expect(formatQuantity({ value: 0.000396825, unit: 'mg/sqcm' }, 2)).toBe('0.0004 mg/cm²');
  });
  it('shows nothing for a missing or malformed quantity', () => {
    expect(formatQuantity(null)).toBe('');
    expect(formatQuantity(undefined)).toBe('');
    expect(formatQuantity({ value: '3', unit: 'mg' })).toBe('');
  });
});

describe('formatFieldValue', () => {
  it('shows references by name and lists row by row', () => {
    expect(formatFieldValue(field(productionsDef, 'equipmentIds'), [3, 4], names)).toBe(
      'equipment#3, equipment#4',
    );
    expect(
      formatFieldValue(
        field(productsDef, 'actives'),
        [
          { activeId: 1, amount: { value: 10, unit: 'mg' } },
          { activeId: 2, amount: null },
        ],
        names,
      ),
    ).toBe('actives#1 10 mg; actives#2');
  });
  it('shows quantities, enums, booleans and blanks', () => {
    expect(
      formatFieldValue(field(productsDef, 'maxDailyDose'), { value: 400, unit: 'mg' }, names),
    ).toBe('400 mg');
    expect(formatFieldValue(field(productsDef, 'dosageForm'), 'Tablet', names)).toBe('Tablet');
    expect(formatFieldValue({ name: 'b', label: 'B', kind: 'boolean' }, false, names)).toBe('No');
    expect(formatFieldValue(field(productsDef, 'strength'), null, names)).toBe('');
  });
});
