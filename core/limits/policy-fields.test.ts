import { describe, expect, it } from 'vitest';
import { defaultPolicy } from './policy.ts';
import { fieldMeaning, POLICY_FIELD_MEANINGS } from './policy-fields.ts';

/** Every leaf of a value as its path: ['limitRepresentation', 'reporting', 'swab', 'showSar']. */
function leaves(value: unknown, path: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [path];
  return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
}

describe('the meaning of each policy field on the policy screen', () => {
  it('finds one for every field of the policy (spec §3) but its residue type', () => {
    const fields = leaves(defaultPolicy()).filter((p) => p[0] !== 'residueType');
    expect(fields.length).toBeGreaterThan(40);
    expect(fields.filter((p) => !fieldMeaning(p)).map((p) => p.join('.'))).toEqual([]);
  });

  it.each([
    [['limitRepresentation', 'reporting', 'rinse', 'showSar'], 'reporting.showSar'],
    [['limitRepresentation', 'sampleLimits', 'swab', 'unit'], 'sampleLimits.unit'],
    [['limitRepresentation', 'sampleRecordingLimits', 'rinse', 'unit'], 'sampleRecordingLimits'],
    [['limitRepresentation', 'productAndEquipmentLimits', 'salMassUnit'], 'salMassUnit'],
    [['arl', 'value'], 'arl'],
    [['residueLimit', 'unit'], 'residueLimit'],
    [['useSAR'], 'useSAR'],
  ] as const)('reads %j as %s', (path, key) => {
    expect(fieldMeaning(path)).toBe(POLICY_FIELD_MEANINGS[key]);
  });

  it('says a field that changes nothing has no effect, and why', () => {
    expect(
      fieldMeaning(['limitRepresentation', 'reporting', 'swab', 'showConcentration'])?.noEffect,
    ).toMatch(/No effect on any number/);
    expect(POLICY_FIELD_MEANINGS.salMassUnit.noEffect).toMatch(/mg\/sqcm/);
    expect(fieldMeaning(['nothing'])).toBeUndefined();
  });
});
