import { describe, expect, it } from 'vitest';
import { nextAnnualPeriod } from './annual-period.ts';

describe('nextAnnualPeriod', () => {
  it('offers the twelve months ending today when there is no summary yet', () => {
    expect(nextAnnualPeriod([], '2026-12-05')).toEqual({ start: '2025-12-06', end: '2026-12-05' });
  });

  it('follows the latest summary without a gap, a year long', () => {
    expect(nextAnnualPeriod(['2024-12-31', '2025-06-30'], '2026-12-05')).toEqual({
      start: '2025-07-01',
      end: '2026-06-30',
    });
  });

  it('ends today when the year after the latest summary is not over', () => {
    expect(nextAnnualPeriod(['2025-12-31'], '2026-12-05')).toEqual({
      start: '2026-01-01',
      end: '2026-12-05',
    });
  });

  it('counts a leap day as the end of February in a common year', () => {
    expect(nextAnnualPeriod([], '2028-02-29')).toEqual({ start: '2027-03-01', end: '2028-02-29' });
    expect(nextAnnualPeriod(['2028-02-28'], '2030-01-01')).toEqual({
      start: '2028-02-29',
      end: '2029-02-28',
    });
  });

  it('ignores what is not a day, and a summary ending today or later', () => {
    expect(nextAnnualPeriod(['not a day', '2027-01-01'], '2026-12-05')).toEqual({
      start: '2025-12-06',
      end: '2026-12-05',
    });
  });
});
