import { describe, expect, it } from 'vitest';
import { retryDelay } from './reconnect-delay.ts';

describe('retryDelay', () => {
  it('doubles from one second to a 30 s cap, between half and all of each step', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => retryDelay(n, () => 1))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
    expect(retryDelay(0, () => 0)).toBe(500);
  });
});
