import { describe, expect, it } from 'vitest';
import { filterQuery } from './audit-filters.ts';
import { valueLines } from './audit-values.ts';

describe('valueLines', () => {
  it('writes one line per field, JSON for lists and a dash for null', () => {
    expect(valueLines({ unit: 'sqin', domains: ['a.com'], country: null, n: 3 })).toEqual([
      'unit: sqin',
      'domains: ["a.com"]',
      'country: —',
      'n: 3',
    ]);
    expect(valueLines(null)).toEqual([]);
  });
});

describe('filterQuery', () => {
  it('sends only the filters that are set, lists comma-separated', () => {
    expect(
      filterQuery({ domains: ['User', 'Equipment'], actions: [], userIds: [3, 4], startDate: '' }),
    ).toEqual({
      domains: 'User,Equipment',
      actions: undefined,
      userIds: '3,4',
      facilityId: undefined,
      startDate: undefined,
      endDate: undefined,
    });
  });
});
