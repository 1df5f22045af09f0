import { beforeAll, describe, expect, it } from 'vitest';
import { contractDocument } from '#core/limits/contract-output.ts';
import { PAIR_FLAG_TEXTS } from '#core/limits/pair-flags.ts';
import type { TMacPairsPage } from '#core/schemas/mac-matrix.schemas.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';
import { facilityLimitsInput } from './facility-limits-input.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';

const t = useFacilityTestServer();
let facility: MacFacility;
beforeAll(async () => {
  facility = await buildMacFacility(t.server, t.facilityId);
});

const page = (query: string) =>
  t.server.request<TMacPairsPage>('GET', `${facility.F}/mac-matrix/pairs?${query}`, {
    token: t.token,
  });
const names = (body: TMacPairsPage) => body.data.map((p) => `${p.previous}>${p.next}`);

describe('GET {F}/mac-matrix/pairs', () => {
  it('pages through the pairs in matrix order with the engine’s numbers', async () => {
    const engine = contractDocument(await facilityLimitsInput(t.server.db, facility.facilityId));
    const first = await page('pageNumber=1&pageLimit=3');
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(4);
    expect(names(first.body)).toEqual(['A>B', 'B>A', 'C>D']);
    const { flags, swabLimitBasis, rinseLimitBasis, ...pair } = first.body.data[0]!;
    expect(pair).toEqual(JSON.parse(JSON.stringify(engine.pairs![0])));
    // Beside the contract's pair: which rule set each sample limit (no fixed limits here).
    expect([swabLimitBasis, rinseLimitBasis]).toEqual(['calculated', 'calculated']);
    // Health 25,000 mg against the general limit's 1,000 mg: 25 × looser, an alert.
    expect(flags).toEqual([PAIR_FLAG_TEXTS.farLooserThanTraditional]);
    expect(first.body.data[1]!.flags).toEqual([]);
    const second = await page('pageNumber=2&pageLimit=3');
    expect(names(second.body)).toEqual(['D>C']);
    expect((await page('pageNumber=3&pageLimit=3')).body).toMatchObject({ data: [], total: 4 });
  });

  it('filters by previous, next, equipment, failing pairs and production', async () => {
    expect(names((await page('previous=B')).body)).toEqual(['B>A']);
    expect(names((await page('next=C')).body)).toEqual(['D>C']);
    expect(names((await page('equipment=E3')).body)).toEqual(['C>D', 'D>C']);
    const failing = await page('failingOnly=true');
    expect(names(failing.body)).toEqual(['A>B', 'C>D']);
    expect(failing.body.data[1]!.flags[0]).toContain('Health-based MACO over 10');
    expect(names((await page(`productionId=${facility.line1}`)).body)).toEqual(['A>B', 'B>A']);
    expect((await page('previous=Nobody')).body).toMatchObject({ data: [], total: 0 });
    expect((await page('previous=A&equipment=E3')).body.total).toBe(0);
  });

  it('finds one pair by both names, with the numbers the list gives it', async () => {
    const one = await page('previous=C&next=D');
    expect(names(one.body)).toEqual(['C>D']);
    expect(one.body.data).toEqual(
      (await page('pageLimit=10')).body.data.filter((p) => p.previous === 'C' && p.next === 'D'),
    );
    expect((await page('previous=C&next=D&failingOnly=true')).body.total).toBe(1);
    expect((await page('previous=D&next=C&failingOnly=true')).body.total).toBe(0);
    expect((await page('previous=A&next=B&equipment=E3')).body.total).toBe(0);
    expect((await page('previous=A&next=C')).body).toMatchObject({ data: [], total: 0 });
    expect((await page('previous=A&next=A')).body.total).toBe(0);
  });

  it('sorts by name or by limit, descending with "-"', async () => {
    expect(names((await page('sort=next')).body)).toEqual(['B>A', 'A>B', 'D>C', 'C>D']);
    const byMaco = (await page('sort=maco')).body.data.map((p) => p.maco!.value);
    expect(byMaco).toEqual([...byMaco].sort((a, b) => a - b));
    const bySalDesc = (await page('sort=-sal')).body.data.map((p) => p.sal!.value);
    expect(bySalDesc).toEqual([...bySalDesc].sort((a, b) => b - a));
    expect(names((await page('sort=previous&pageLimit=1&pageNumber=4')).body)).toEqual(['D>C']);
  });

  it('refuses malformed paging and sorting with per-property messages', async () => {
    const res = await t.server.request<{ errName: string; errors: { property: string }[] }>(
      'GET',
      `${facility.F}/mac-matrix/pairs?pageLimit=0&sort=cost&failingOnly=maybe`,
      { token: t.token },
    );
    expect(res.status).toBe(422);
    expect(res.body.errName).toBe('DataValidationError');
    expect(res.body.errors.map((e) => e.property).sort()).toEqual(
      ['failingOnly', 'pageLimit', 'sort'].sort(),
    );
    expect((await page('productionId=999999')).status).toBe(404);
  });
});
