import { describe, expect, it } from 'vitest';
import { parsePropertyPath } from './property-path.ts';

describe('parsePropertyPath', () => {
  it.each([
    ['', []],
    ['name', ['name']],
    ['reason', ['reason']],
    ['surfaceArea.unit', ['surfaceArea', 'unit']],
    ['passwordPolicySettings.minCapital', ['passwordPolicySettings', 'minCapital']],
    ['products[12].minBatchSize', ['products', 12, 'minBatchSize']],
    ['facilityRoles[0].roleIds', ['facilityRoles', 0, 'roleIds']],
    ['actives.1.amount.value', ['actives', 1, 'amount', 'value']],
    ['allowedDomains[1]', ['allowedDomains', 1]],
    ['a[1][2].b', ['a', 1, 2, 'b']],
    ['loc7-swab.batchNumber', ['loc7-swab', 'batchNumber']],
    // Not an index: kept as the server wrote it rather than guessed at.
    ['tags[x].name', ['tags[x]', 'name']],
  ])('%s', (property, expected) => {
    expect(parsePropertyPath(property)).toEqual(expected);
  });
});
