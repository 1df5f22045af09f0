import { describe, expect, it } from 'vitest';
import { describeEdit, formatChange, formatLimit } from './what-if-format.ts';

describe('what-if formatting', () => {
  it('formats limits and changes', () => {
    expect(formatLimit(null)).toBe('–');
    expect(formatLimit(1234.567)).toBe('1,235');
    expect(formatChange(-50)).toBe('-50.0 %');
    expect(formatChange(12.345)).toBe('+12.3 %');
    expect(formatChange(null)).toBe('–');
  });

  it('describes each edit', () => {
    expect(
      describeEdit({ kind: 'minBatchSize', product: 'A', value: { value: 25, unit: 'kg' } }),
    ).toBe('Minimum batch size of A → 25 kg');
    expect(
      describeEdit({
        kind: 'addProduct',
        product: 'N',
        active: 'X',
        minBatchSize: { value: 1, unit: 'kg' },
        maxDailyDose: { value: 2, unit: 'mg' },
        equipment: ['E1', 'E2'],
      }),
    ).toBe('New product N (X; batch 1 kg, daily dose 2 mg; on E1, E2)');
  });
});
