import { describe, expect, it } from 'vitest';
import type { TRecordVersion } from '#core/schemas/versions.schemas.ts';
import { showValue, versionDifferences } from './version-diff.ts';

function version(n: number, values: Record<string, unknown>, archived = false): TRecordVersion {
  return { version: n, recordedAt: '2026-11-24T00:00:00Z', recordedBy: null, archived, values };
}

describe('versionDifferences', () => {
  it('lists each changed field with both values, and leaves out bookkeeping', () => {
    const before = version(1, { name: 'SOP A', revision: '1', ids: [1, 2], version: 1 });
    const after = version(2, { name: 'SOP A', revision: '2', ids: [1, 3], scope: 'x', version: 2 });
    expect(versionDifferences(before, after)).toEqual([
      { field: 'ids', before: [1, 2], after: [1, 3] },
      { field: 'revision', before: '1', after: '2' },
      { field: 'scope', before: undefined, after: 'x' },
    ]);
  });

  it('finds an archive, and no differences between equal versions', () => {
    const values = { name: 'SOP A', nested: { a: 1 } };
    expect(versionDifferences(version(1, values), version(2, { ...values }))).toEqual([]);
    expect(versionDifferences(version(1, values), version(2, values, true))).toEqual([
      { field: 'archived', before: false, after: true },
    ]);
  });

  it('follows nested objects to their fields', () => {
    const before = version(1, { policy: { arl: { value: 10, unit: 'ppm' }, useARL: true } });
    const after = version(2, { policy: { arl: { value: 5, unit: 'ppm' }, useARL: true } });
    expect(versionDifferences(before, after)).toEqual([
      { field: 'policy.arl.value', before: 10, after: 5 },
    ]);
  });

  it('treats a missing field and null alike', () => {
    expect(versionDifferences(version(1, { a: null }), version(2, {}))).toEqual([]);
  });
});

describe('showValue', () => {
  it('shows nothing as a dash and lists as JSON', () => {
    expect(showValue(null)).toBe('—');
    expect(showValue('')).toBe('—');
    expect(showValue([1, 2])).toBe('1, 2');
    expect(showValue([])).toBe('—');
    expect(showValue([{ a: 1 }])).toBe('[{"a":1}]');
    expect(showValue(3)).toBe('3');
  });
});
