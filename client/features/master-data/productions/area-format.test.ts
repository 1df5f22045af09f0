import { describe, expect, it } from 'vitest';
import { formatArea, formatAreaChange } from './area-format.ts';

describe('area formatting', () => {
  it.each([
    [{ value: 15184.516, unit: 'sqcm' }, '15,184.516 cm²'],
    [{ value: 0.1 + 0.2, unit: 'sqm' }, '0.3 m²'],
    [null, '—'],
  ])('formats %j as %s', (area, text) => {
    expect(formatArea(area)).toBe(text);
  });

  it('signs the change a draft makes', () => {
    expect(formatAreaChange(120, 184.516, 'sqcm')).toBe('+64.516 cm²');
    expect(formatAreaChange(184.516, 64.516, 'sqcm')).toBe('−120 cm²');
    expect(formatAreaChange(5, 5, 'sqcm')).toBe('no change');
  });
});
