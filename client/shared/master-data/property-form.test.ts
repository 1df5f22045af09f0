import { describe, expect, it } from 'vitest';
import type { TPropertyDefinition } from '#core/schemas/additional-properties.schemas.ts';
import { productsDef } from '#core/entities/defs/index.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import {
  archivedValues,
  initialPropertyValues,
  propertyChanges,
  propertyCreateValues,
  propertyField,
} from './property-form.ts';
import { formPathOf } from './property-path.ts';

const base = {
  options: [],
  required: false,
  helpText: '',
  archived: false,
  archivedAt: null,
  archiveReason: null,
  version: 1,
  createdAt: '',
  updatedAt: '',
};
const defs: TPropertyDefinition[] = [
  { ...base, key: 'hardness', label: 'Hardness', kind: 'number', measure: null },
  { ...base, key: 'fill', label: 'Fill', kind: 'quantity', measure: 'volume' },
  { ...base, key: 'old', label: 'Old', kind: 'text', measure: null, archived: true },
];
const record = {
  id: 1,
  version: 3,
  archivedAt: null,
  archiveReason: null,
  additionalProperties: { hardness: 80, old: 'kept' },
};

describe('additional properties in the entity form', () => {
  it('starts from the stored values, with default units for quantities', () => {
    expect(initialPropertyValues(defs, record)).toEqual({
      hardness: 80,
      fill: { value: null, unit: 'ml' },
    });
  });

  it('sends what a create has and what an edit changes', () => {
    const values = { additionalProperties: { hardness: null, fill: { value: 5, unit: 'L' } } };
    expect(propertyCreateValues(defs, values)).toEqual({ fill: { value: 5, unit: 'L' } });
    expect(propertyChanges(defs, record, values)).toEqual({
      hardness: null,
      fill: { value: 5, unit: 'L' },
    });
    expect(archivedValues(defs, record)).toEqual([{ definition: defs[2], value: 'kept' }]);
  });

  it("puts the server's messages on the property's input", () => {
    const fields = defs.filter((d) => !d.archived).map(propertyField);
    const def = productsDef as EntityDef;
    expect(formPathOf(def, 'additionalProperties.hardness', fields)).toEqual([
      'additionalProperties',
      'hardness',
    ]);
    expect(formPathOf(def, 'additionalProperties.fill', fields)).toEqual([
      'additionalProperties',
      'fill',
      'value',
    ]);
    expect(formPathOf(def, 'additionalProperties.unknown', fields)).toBeNull();
  });
});
