import { describe, expect, it } from 'vitest';
import {
  nameInWords,
  parsePropertyPath,
  propertyHeading,
  propertyInWords,
} from './property-path.ts';

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

describe('propertyInWords', () => {
  it.each([
    ['minBatchSize', 'minimum batch size'],
    ['minBatchSize.unit', 'unit of minimum batch size'],
    ['surfaceArea.value', 'surface area'],
    ['products[12].minBatchSize', 'product 13, minimum batch size'],
    ['actives.1.activeId', 'active 2, active'],
    ['products[0].actives[1].pde.unit', 'product 1, active 2, unit of PDE'],
    ['equipmentIds[1]', 'equipment 2'],
    ['allowedDomains[1]', 'allowed domain 2'],
    ['passwordPolicySettings.minCapital', 'password policy settings, minimum capital'],
    ['facilityRoles[0].roleIds', 'facility role 1, role'],
    ['categories[2]', 'category 3'],
  ])('%s reads %s', (property, words) => {
    expect(propertyInWords(property)).toBe(words);
    expect(propertyInWords(property)).not.toMatch(/[[\].]/);
  });

  it('names list items and fields the way the caller knows them', () => {
    const names: Record<string, string[]> = { products: ['Aspirin 100 mg'], actives: ['Active X'] };
    const words = {
      itemName: (list: string, index: number) => names[list]?.[index],
      label: (name: string) => (name === 'maxDailyDose' ? 'largest daily dose' : undefined),
    };
    expect(propertyHeading('products[0].minBatchSize.unit', words)).toBe(
      'Product ‘Aspirin 100 mg’, unit of minimum batch size',
    );
    expect(propertyInWords('products[0].maxDailyDose', words)).toBe(
      'product ‘Aspirin 100 mg’, largest daily dose',
    );
    expect(nameInWords('ld50')).toBe('LD50');
  });
});
