import { describe, expect, it } from 'vitest';
import { changedFields } from './audit-diff.ts';

describe('changedFields', () => {
  it('keeps only the fields that change, old beside new', () => {
    expect(
      changedFields(
        { name: 'Mixer', area: 10, room: 'A' },
        { name: 'Mixer', area: 12, room: undefined },
      ),
    ).toEqual({
      oldValues: { area: 10 },
      newValues: { area: 12 },
    });
    expect(changedFields({ tags: ['a'] }, { tags: ['a', 'b'], note: 'x' })).toEqual({
      oldValues: { tags: ['a'], note: null },
      newValues: { tags: ['a', 'b'], note: 'x' },
    });
  });

  it('compares objects whatever the order of their keys', () => {
    expect(() =>
      changedFields({ area: { unit: 'sqm', value: 2 } }, { area: { value: 2, unit: 'sqm' } }),
    ).toThrow(/No changes/);
  });

  it('refuses an edit that changes nothing', () => {
    expect(() => changedFields({ name: 'Mixer' }, { name: 'Mixer' })).toThrow(
      /No changes have been made/,
    );
  });
});
