import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { productsDef } from '#core/entities/defs/index.ts';
import {
  dashboardKeys,
  entityKeys,
  equipmentKeys,
  invalidateMasterData,
  invalidateVerification,
  limitsKeys,
  mappingKeys,
  policyKeys,
  recordHistoryKeys,
  reportKeys,
  roomGradeKeys,
  studyKeys,
  userKeys,
  verificationKeys,
} from './query-keys.ts';

/** Caches every key, invalidates `prefix`, and answers which keys went stale. */
async function staleAfter(keys: (readonly unknown[])[], prefix: readonly unknown[]) {
  const client = new QueryClient();
  for (const key of keys) client.setQueryData(key, 'cached');
  await client.invalidateQueries({ queryKey: prefix });
  return keys.map((key) => client.getQueryState(key)?.isInvalidated);
}

describe('invalidateMasterData', () => {
  it('marks stale everything derived from the facility master data, and nothing else', async () => {
    const client = new QueryClient();
    const derived = [
      entityKeys.list(7, productsDef, { pageNumber: 1 }),
      entityKeys.options(7, productsDef),
      entityKeys.whereUsed(7, productsDef, 2),
      entityKeys.documents(7, productsDef, 2),
      mappingKeys.productionMap(7, 3),
      mappingKeys.noGroup(7),
      equipmentKeys.locations(7, 4, false),
      roomGradeKeys.grades(7),
      limitsKeys.macMatrixOf(7, 3),
      limitsKeys.macGrid(7),
      limitsKeys.report(7, '/limits/equipment'),
      limitsKeys.pair(7, 'A', 'B'),
      limitsKeys.explain(7, 'A', 'B', 3),
      limitsKeys.input(7, 'draft'),
      limitsKeys.methodFit(7, 5),
      dashboardKeys.toxicity(7),
    ];
    const untouched = [
      entityKeys.list(8, productsDef, { pageNumber: 1 }),
      limitsKeys.macMatrixOf(8),
      studyKeys.list(7, { pageNumber: 1 }),
      verificationKeys.run(7, 1),
      reportKeys.list(7, { pageNumber: 1 }),
      policyKeys.tab(7, 1),
      recordHistoryKeys.record(7, productsDef, 2),
      userKeys.list({ pageNumber: 1 }),
    ];
    for (const key of [...derived, ...untouched]) client.setQueryData(key, 'cached');

    await invalidateMasterData(client, 7);

    const isStale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect(derived.map(isStale)).toEqual(derived.map(() => true));
    expect(untouched.map(isStale)).toEqual(untouched.map(() => false));
  });
});

describe('invalidateVerification', () => {
  it('marks stale the runs, the studies, every statistics query and the dashboard of the facility, and nothing else', async () => {
    const client = new QueryClient();
    const refreshed = [
      verificationKeys.run(7, 1),
      verificationKeys.microbial(7, 1),
      verificationKeys.deviation(7, 4),
      studyKeys.list(7, { pageNumber: 1 }),
      studyKeys.runs(7, 2),
      verificationKeys.statistics(7, { groupBy: 'equipment', key: '3' }),
      verificationKeys.statistics(7, { key: '' }),
      dashboardKeys.all(7),
      dashboardKeys.tracker(7),
    ];
    const untouched = [
      verificationKeys.run(8, 1),
      verificationKeys.statistics(8, { key: '' }),
      dashboardKeys.all(8),
      // The settings the statistics are judged by change only through their own policy.
      verificationKeys.settings(7),
      entityKeys.list(7, productsDef, { pageNumber: 1 }),
      limitsKeys.macGrid(7),
      reportKeys.list(7, { pageNumber: 1 }),
    ];
    for (const key of [...refreshed, ...untouched]) client.setQueryData(key, 'cached');

    await invalidateVerification(client, 7);

    const isStale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect(refreshed.map(isStale)).toEqual(refreshed.map(() => true));
    expect(untouched.map(isStale)).toEqual(untouched.map(() => false));
  });
});

describe('the keys nest', () => {
  it("a study's runs go stale with the facility's studies", async () => {
    const keys = [studyKeys.detail(7, 1), studyKeys.runs(7, 1), studyKeys.list(8, {})];
    expect(await staleAfter(keys, studyKeys.all(7))).toEqual([true, true, false]);
  });

  it("a run's microbial results go stale with the run, and every run with the runs", async () => {
    const keys = [verificationKeys.microbial(7, 1), verificationKeys.run(7, 2)];
    expect(await staleAfter(keys, verificationKeys.run(7, 1))).toEqual([true, false]);
    expect(await staleAfter(keys, verificationKeys.runs(7))).toEqual([true, true]);
  });

  it('every report query, annual summaries included, goes stale with the reports', async () => {
    const keys = [
      reportKeys.list(7, { pageNumber: 1 }),
      reportKeys.tags(7),
      reportKeys.one(7, 3),
      reportKeys.compare(7, 3),
      reportKeys.annualSummaries(7, { pageNumber: 1 }),
      reportKeys.tags(8),
    ];
    expect(await staleAfter(keys, reportKeys.all(7))).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
  });

  it("the user administration's lists go stale together, the signed-in user's own does not", async () => {
    const keys = [
      userKeys.list({ pageNumber: 1 }),
      userKeys.departments,
      userKeys.facilityRoles(1, 7),
      ['users', 'me'],
    ];
    expect(await staleAfter(keys, userKeys.all)).toEqual([true, true, true, false]);
  });

  it("every page of a record's history goes stale with the record's history", async () => {
    const keys = [
      recordHistoryKeys.page(7, productsDef, 2, { pageNumber: 2 }),
      recordHistoryKeys.page(7, productsDef, 3, { pageNumber: 1 }),
    ];
    expect(await staleAfter(keys, recordHistoryKeys.record(7, productsDef, 2))).toEqual([
      true,
      false,
    ]);
  });
});
