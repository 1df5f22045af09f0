import { describe, expect, it } from 'vitest';
import { canDo, permissionsKey } from './permission-rules.ts';

describe('canDo', () => {
  it.each([
    ['an unknown map (still loading or failed)', undefined, false],
    ['a map without the resource', {}, false],
    ['a map without the action', { Equipment: { Get: true } }, false],
    ['a map refusing the action', { Equipment: { Modify: false } }, false],
    ['a map allowing the action', { Equipment: { Modify: true } }, true],
  ])('%s → %s', (_, map, expected) => {
    expect(canDo(map, 'Equipment', 'Modify')).toBe(expected);
  });
});

describe('permissionsKey', () => {
  it('sits under the facilities key that role and facility changes invalidate', () => {
    expect(permissionsKey(7).slice(0, 2)).toEqual(['facilities', 7]);
  });
});
