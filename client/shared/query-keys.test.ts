import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { productsDef } from '#core/entities/defs/index.ts';
import {
  dashboardKeys,
  entityKeys,
  equipmentKeys,
  invalidateMasterData,
  limitsKeys,
  mappingKeys,
  roomGradeKeys,
} from './query-keys.ts';

describe('invalidateMasterData', () => {
  it('marks stale everything derived from the facility master data, and nothing else', async () => {
    const client = new QueryClient();
    const derived = [
      entityKeys.list(7, productsDef, { pageNumber: 1 }),
      entityKeys.options(7, productsDef),
      mappingKeys.productionMap(7, 3),
      mappingKeys.noGroup(7),
      equipmentKeys.locations(7, 4, false),
      roomGradeKeys.equipment(7),
      limitsKeys.macMatrix(7),
      [...limitsKeys.all(7), 'report', 'equipment'],
      dashboardKeys.toxicity(7),
    ];
    const untouched = [
      entityKeys.list(8, productsDef, { pageNumber: 1 }),
      limitsKeys.macMatrix(8),
      ['facility', 7, 'studies'],
      ['users', 'admin'],
    ];
    for (const key of [...derived, ...untouched]) client.setQueryData(key, 'cached');

    await invalidateMasterData(client, 7);

    const isStale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect(derived.map(isStale)).toEqual(derived.map(() => true));
    expect(untouched.map(isStale)).toEqual(untouched.map(() => false));
  });
});
