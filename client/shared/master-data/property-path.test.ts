import { describe, expect, it } from 'vitest';
import { equipmentDef, productionsDef, productsDef } from '#core/entities/defs/index.ts';
import { formPathOf, mapPropertyErrors } from './property-path.ts';

describe('formPathOf', () => {
  it.each([
    [equipmentDef, 'name', ['name']],
    [equipmentDef, 'surfaceArea.unit', ['surfaceArea', 'unit']],
    [equipmentDef, 'surfaceArea.value', ['surfaceArea', 'value']],
    // A missing quantity is reported on the quantity: its number is what the user must fill.
    [equipmentDef, 'surfaceArea', ['surfaceArea', 'value']],
    [productsDef, 'actives[0].activeId', ['actives', 0, 'activeId']],
    [productsDef, 'actives[1].amount.unit', ['actives', 1, 'amount', 'unit']],
    [productsDef, 'actives[3].amount', ['actives', 3, 'amount', 'value']],
    [productsDef, 'actives', ['actives']],
    [productionsDef, 'equipmentIds', ['equipmentIds']],
    [productionsDef, 'equipmentIds[1]', ['equipmentIds']],
  ] as const)('%s %s', (def, property, expected) => {
    expect(formPathOf(def, property)).toEqual(expected);
  });

  it('has no form item for version, reason or unknown properties', () => {
    expect(formPathOf(equipmentDef, 'version')).toBeNull();
    expect(formPathOf(equipmentDef, 'reason')).toBeNull();
    expect(formPathOf(equipmentDef, 'colour')).toBeNull();
    expect(formPathOf(productsDef, 'actives[0].colour')).toBeNull();
    expect(formPathOf(equipmentDef, '')).toBeNull();
  });
});

describe('mapPropertyErrors', () => {
  it('puts messages on their fields and keeps the rest for above the form', () => {
    const mapped = mapPropertyErrors(productsDef, [
      { property: 'actives[1].activeId', constraints: { reference: 'No active 12 here' } },
      { property: 'name', constraints: { unique: 'exists', other: 'too long' } },
      { property: 'version', constraints: { custom: 'The version is required' } },
      { property: 'actives[1].activeId', constraints: { x: 'second' } },
    ]);
    expect(mapped.fields).toEqual([
      { name: ['actives', 1, 'activeId'], errors: ['No active 12 here', 'second'] },
      { name: ['name'], errors: ['exists', 'too long'] },
    ]);
    expect(mapped.general).toEqual(['Version: The version is required']);
  });

  it("says in words, with the form's labels, where a message no field carries belongs", () => {
    const mapped = mapPropertyErrors(productsDef, [
      { property: 'actives[1].colour', constraints: { unknown: 'is not a field of an active' } },
      { property: 'additionalProperties.shelfLife', constraints: { custom: 'is not defined' } },
    ]);
    expect(mapped.general).toEqual([
      'Active 2, colour: is not a field of an active',
      'Additional properties, shelf life: is not defined',
    ]);
  });

  it('maps nothing when the error has no list', () => {
    expect(mapPropertyErrors(productsDef, undefined)).toEqual({ fields: [], general: [] });
  });
});
