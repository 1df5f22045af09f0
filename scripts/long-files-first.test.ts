import { describe, expect, it } from 'vitest';
import { spread } from './long-files-first.ts';

describe('spread', () => {
  it('puts each of the few before an even share of the many, keeping both orders', () => {
    expect(spread<string | number>(['a', 'b'], [1, 2, 3, 4, 5])).toEqual(['a', 1, 2, 3, 'b', 4, 5]);
    expect(spread<string | number>(['a', 'b', 'c'], [1])).toEqual(['a', 'b', 1, 'c']);
  });

  it('loses nothing when either list is empty', () => {
    expect(spread<number>([], [1, 2])).toEqual([1, 2]);
    expect(spread(['a'], [])).toEqual(['a']);
  });
});
