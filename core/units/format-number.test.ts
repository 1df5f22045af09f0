import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  excelNumberFormat,
  formatNumber,
  formatQuantity,
  significantDigits,
  unitLabel,
} from './format-number.ts';

const parsed = (text: string) => Number(text.replaceAll(',', ''));

describe('formatNumber', () => {
  it.each([
    // The figures issue 30 found on screens and in PDFs.
    [0.0003057018765353721, 4, '0.0003057'],
    [5.6020599913279625, 4, '5.602'],
    [2005.9999999999998, 4, '2,006'],
    [6.114e-5, 4, '0.00006114'],
    [1.74e-6, 4, '0.00000174'],
    [79100, 4, '79,100'],
    // Integer digits above the significant ones are kept, never rounded away.
    [210000, 4, '210,000'],
    [12345.678, 4, '12,346'],
    [1234567890123, 4, '1,234,567,890,123'],
    [0, 4, '0'],
    [12.5, 4, '12.5'],
    [83.33333333, 4, '83.33'],
    [-3.14159, 4, '-3.142'],
    [9999.7, 4, '10,000'],
    [0.000396825, 2, '0.0004'],
    [0.000396825, 8, '0.000396825'],
    [2e-9, 4, '0.000000002'],
    [1e21, 4, '1,000,000,000,000,000,000,000'],
  ])('%s at %i digits → %s', (value, digits, text) => {
    expect(formatNumber(value, digits)).toBe(text);
  });

  it('shows 4 significant digits by default and marks what is not a number', () => {
    expect(formatNumber(0.0003057018765353721)).toBe('0.0003057');
    expect(formatNumber(Number.NaN)).toBe('—');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('∞');
  });

  it('never writes e-notation nor rounds a non-zero value to 0, within the rounding', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e-300, max: 1e300, noNaN: true, noDefaultInfinity: true }),
        fc.integer({ min: 2, max: 8 }),
        (value, digits) => {
          const text = formatNumber(value, digits);
          expect(text).not.toMatch(/e/i);
          const back = parsed(text);
          expect(back).toBeGreaterThan(0);
          // Half a unit in the last significant place; half a unit where integer digits are kept.
          const allowed = value >= 10 ** digits ? 0.5 : 0.5 * 10 ** (1 - digits) * value;
          expect(Math.abs(back - value)).toBeLessThanOrEqual(allowed * (1 + 1e-9));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('significantDigits', () => {
  it('keeps the setting within 2–8, 4 when absent', () => {
    expect(significantDigits(undefined)).toBe(4);
    expect(significantDigits(null)).toBe(4);
    expect(significantDigits(1)).toBe(2);
    expect(significantDigits(12)).toBe(8);
    expect(significantDigits(6)).toBe(6);
  });
});

describe('unitLabel and formatQuantity', () => {
  it.each([
    ['mg/sqcm', 'mg/cm²'],
    ['sqcm', 'cm²'],
    ['ug', 'µg'],
    ['ug/swab', 'µg/swab'],
    ['ug/sqin', 'µg/in²'],
    ['mg/swab', 'mg/swab'],
    ['mg/ml', 'mg/ml'],
    ['CFU/plate', 'CFU/plate'],
    ['mg/kg/day', 'mg/kg/day'],
  ])('%s reads %s', (unit, label) => {
    expect(unitLabel(unit)).toBe(label);
  });

  it('writes a value with its unit as people write it', () => {
    expect(formatQuantity(0.0003057018765353721, 'mg/swab')).toBe('0.0003057 mg/swab');
    expect(formatQuantity(79100, 'sqcm')).toBe('79,100 cm²');
    expect(formatQuantity(0.00000174, 'mg/sqcm')).toBe('0.00000174 mg/cm²');
    expect(formatQuantity(96.1538, '%')).toBe('96.15 %');
    expect(formatQuantity(null, 'mg')).toBe('—');
    expect(formatQuantity(0.123456, 'mg', 6)).toBe('0.123456 mg');
  });
});

describe('excelNumberFormat', () => {
  it('gives a cell the decimals the screen shows', () => {
    expect(excelNumberFormat(79100)).toBe('#,##0');
    expect(excelNumberFormat(2005.9999999999998)).toBe('#,##0');
    expect(excelNumberFormat(5.6020599913279625)).toBe('#,##0.000');
    expect(excelNumberFormat(1.74e-6)).toBe('#,##0.00000000');
    expect(excelNumberFormat(0.0003057018765353721, 2)).toBe('#,##0.00000');
  });
});
