import { describe, expect, it } from 'vitest';
import { equipmentDef, productsDef } from '#core/entities/defs/index.ts';
import type { EntityRecord } from './entity-api.ts';
import { changedFields, createBody, initialFormValues, newListRow } from './form-values.ts';

const record = (values: Record<string, unknown>): EntityRecord => ({
  id: 7,
  version: 3,
  archivedAt: null,
  archiveReason: null,
  ...values,
});

describe('initialFormValues', () => {
  it('preselects the default unit of every quantity of a new record', () => {
    const values = initialFormValues(productsDef);
    expect(values.maxDailyDose).toEqual({ value: null, unit: 'mg' });
    expect(values.minBatchSize).toEqual({ value: null, unit: 'kg' });
    expect(values.actives).toEqual([]);
    expect(initialFormValues(equipmentDef).surfaceArea).toEqual({ value: null, unit: 'sqcm' });
  });

  it('starts an edit from the record, rows of lists included', () => {
    const values = initialFormValues(
      productsDef,
      record({ name: 'Tab', strength: null, actives: [{ activeId: 4 }] }),
    );
    expect(values.name).toBe('Tab');
    expect(values.strength).toEqual({ value: null, unit: 'mg' });
    expect(values.actives).toEqual([{ activeId: 4, amount: { value: null, unit: 'mg' } }]);
  });

  it('starts a new list row with its quantities in default units', () => {
    const actives = productsDef.fields.find((f) => f.name === 'actives');
    if (actives?.kind !== 'list') throw new Error('actives is a list');
    expect(newListRow(actives)).toEqual({ amount: { value: null, unit: 'mg' } });
  });
});

describe('createBody', () => {
  it('sends what has a value, trimmed, and leaves out empty quantities and blanks', () => {
    expect(
      createBody(productsDef, {
        name: '  Tablet A ',
        externalId: '   ',
        strength: { value: null, unit: 'mg' },
        maxDailyDose: { value: 400, unit: 'mg' },
        minBatchSize: { value: 100, unit: 'kg' },
        actives: [{ activeId: 1, amount: { value: null, unit: 'mg' } }],
      }),
    ).toEqual({
      name: 'Tablet A',
      maxDailyDose: { value: 400, unit: 'mg' },
      minBatchSize: { value: 100, unit: 'kg' },
      actives: [{ activeId: 1 }],
    });
  });
});

describe('changedFields', () => {
  const mixer = record({
    name: 'Mixer',
    externalId: null,
    surfaceArea: { unit: 'sqm', value: 12.5 },
    material: 'Glass',
    roomGrade: null,
  });

  it('finds nothing when the form holds the record', () => {
    expect(changedFields(equipmentDef, mixer, initialFormValues(equipmentDef, mixer))).toEqual({});
  });

  it('names only what changed, and sends null for a cleared field', () => {
    const values = {
      ...initialFormValues(equipmentDef, mixer),
      surfaceArea: { value: 14, unit: 'sqm' },
      material: undefined,
      externalId: '',
    };
    expect(changedFields(equipmentDef, mixer, values)).toEqual({
      surfaceArea: { value: 14, unit: 'sqm' },
      material: null,
    });
  });

  it('counts a unit change as a change', () => {
    const values = {
      ...initialFormValues(equipmentDef, mixer),
      surfaceArea: { value: 12.5, unit: 'sqcm' },
    };
    expect(changedFields(equipmentDef, mixer, values)).toEqual({
      surfaceArea: { value: 12.5, unit: 'sqcm' },
    });
  });
});
