import { describe, expect, it } from 'vitest';
import {
  SOURCE_DECLARATIONS,
  customReportProblems,
  parseFilterValue,
  type SourceColumn,
} from './custom-reports.schemas.ts';

const number: SourceColumn = { key: 'maco', label: 'MACO', type: 'number', unit: 'mg' };
const date: SourceColumn = { key: 'at', label: 'When', type: 'date' };
const flag: SourceColumn = { key: 'passed', label: 'Passed', type: 'boolean' };
const grade: SourceColumn = { key: 'g', label: 'Grade', type: 'enum', options: ['A', 'B'] };

describe('parseFilterValue', () => {
  it.each([
    [number, '12.5', { value: 12.5 }],
    [number, ' 1e-3 ', { value: 0.001 }],
    [number, 'ten', { problem: 'must be a number for MACO' }],
    [number, '', { problem: 'must be a number for MACO' }],
    [date, '2026-02-28', { value: '2026-02-28' }],
    [date, '2026-02-30', { problem: 'is not a calendar date' }],
    [flag, 'false', { value: false }],
    [flag, 'no', { problem: 'must be Yes or No' }],
    [grade, 'B', { value: 'B' }],
    [grade, 'b', { problem: 'must be one of A, B' }],
  ])('%o %s', (column, value, expected) => {
    expect(parseFilterValue(column, value)).toEqual(expected);
  });
});

describe('customReportProblems', () => {
  it('accepts columns and filters the source declares', () => {
    expect(
      customReportProblems({
        source: 'pairs',
        columns: [{ key: 'previous' }, { key: 'maco' }],
        filters: [{ column: 'governing', operator: 'EqualTo', value: 'health' }],
      }),
    ).toEqual([]);
  });

  it('names the property of each problem', () => {
    const problems = customReportProblems({
      source: 'auditEntries',
      columns: [{ key: 'at' }, { key: 'at' }, { key: 'secret' }],
      filters: [{ column: 'at', operator: 'Contains', value: '2026' }],
    });
    expect(problems.map((p) => p.property)).toEqual([
      'columns[1].key',
      'columns[2].key',
      'filters[0].operator',
    ]);
  });

  it('declares operators for every column type and unique column keys per source', () => {
    for (const source of SOURCE_DECLARATIONS) {
      const keys = source.columns.map((c) => c.key);
      expect(new Set(keys).size, source.key).toBe(keys.length);
      for (const c of source.columns.filter((c) => c.type === 'enum'))
        expect(c.options?.length, `${source.key}.${c.key}`).toBeGreaterThan(0);
    }
  });
});
