import { describe, expect, it } from 'vitest';
import { countdown } from './countdown.ts';

const now = Date.parse('2026-12-05T12:00:00Z');

describe('countdown', () => {
  it.each([
    [null, null],
    ['2026-12-05T12:30:00Z', '30 min left'],
    ['2026-12-05T15:12:00Z', '3 h 12 min left'],
    ['2026-12-07T14:00:00Z', '2 d 2 h left'],
    ['2026-12-05T10:00:00Z', '2 h 0 min overdue'],
    ['2026-12-05T12:00:00Z', '0 min overdue'],
  ])('%s → %s', (deadline, shown) => {
    expect(countdown(deadline, now)).toBe(shown);
  });
});
