import { describe, expect, it } from 'vitest';
import { fileNameOf, problemsOf } from './workbook-problems.ts';

describe('fileNameOf', () => {
  it('prefers the UTF-8 name, then the plain one, then a default', () => {
    expect(
      fileNameOf(
        `attachment; filename="Master Data - Plant.xlsx"; filename*=UTF-8''Master%20Data%20-%20Pl%C3%A4nt.xlsx`,
      ),
    ).toBe('Master Data - Plänt.xlsx');
    expect(fileNameOf('attachment; filename="a.xlsx"')).toBe('a.xlsx');
    expect(fileNameOf(null)).toBe('Master Data.xlsx');
  });
});

describe('problemsOf', () => {
  it('keeps sheet, row, column and message and tolerates odd items', () => {
    expect(
      problemsOf([
        { sheet: 'Products', row: 4, column: 'Actives', message: 'Unknown active "X"' },
        { message: 'The file is not a workbook' },
        null,
      ]),
    ).toEqual([
      { sheet: 'Products', row: 4, column: 'Actives', message: 'Unknown active "X"' },
      { sheet: '', row: null, column: null, message: 'The file is not a workbook' },
    ]);
    expect(problemsOf(undefined)).toEqual([]);
  });
});
