import { describe, expect, it } from 'vitest';
import { ENTITY_DEFS, MODULE_RECORD_DEFS, RECORD_DEFS, entityDef } from '../entities/defs/index.ts';
import { findForbiddenText } from './forbidden-text.ts';
import { missingRecord } from './missing-record.ts';

describe('missingRecord', () => {
  it('names the kind of record and why it has no name, with the right article', () => {
    expect(missingRecord('Product', 'archived or deleted')).toBe('an archived or deleted product');
    expect(missingRecord('Product', 'deleted')).toBe('a deleted product');
    expect(missingRecord('User', 'unknown')).toBe('an unknown user');
    expect(missingRecord('Facility', 'unknown')).toBe('an unknown facility');
    expect(missingRecord('Analytical method', 'unnamed')).toBe('an unnamed analytical method');
  });

  it('keeps abbreviations and counts equipment as items', () => {
    expect(missingRecord('API', 'deleted')).toBe('a deleted API');
    expect(missingRecord('Equipment', 'deleted')).toBe('a deleted equipment item');
    expect(missingRecord('Equipment', 'archived or deleted')).toBe(
      'an archived or deleted equipment item',
    );
  });

  it('opens a sentence with a capital', () => {
    expect(missingRecord('Product', 'deleted', true)).toBe('A deleted product');
    expect(missingRecord('Equipment', 'archived or deleted', true)).toBe(
      'An archived or deleted equipment item',
    );
  });

  it('never shows a number for the record', () => {
    expect(findForbiddenText(`Users: ${missingRecord('User', 'unknown')}`)).toEqual([]);
  });

  it('has words for every record a reference field can point at (the workbook export)', () => {
    const referenced = new Set(
      [...ENTITY_DEFS, ...RECORD_DEFS, ...MODULE_RECORD_DEFS].flatMap((def) =>
        def.fields.flatMap((field) => (field.kind === 'reference' ? [field.entity] : [])),
      ),
    );
    expect(referenced.size).toBeGreaterThan(0);
    for (const key of referenced) {
      const text = missingRecord(entityDef(key).label, 'archived or deleted');
      expect(text).toMatch(/^an archived or deleted [a-zA-Z ]+$/);
    }
  });
});
